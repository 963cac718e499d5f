import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { streamBody } from '../../shared/http/read-body.ts';
import type { SnapshotCache } from '../snapshot/snapshot.ts';
import type { PbxStore } from '../state/store.ts';
import type { MonitoringData } from './monitoring-methods.ts';
import { snapshotMonitoringData } from './snapshot-monitoring-data.ts';
import { parseMethodCall, prescanMethodName, serializeFault, serializeResult } from './xmlrpc-codec.ts';
import { dispatchXmlRpcCall, preParseAuthFault, type XmlRpcOutcome } from './xmlrpc-dispatcher.ts';
import { FAULT_CODES, xmlRpcFault } from './xmlrpc-faults.ts';

/** The path of the XML-RPC interface on the PBX web server (XMLRPC-ENDPOINT). */
export const XMLRPC_PATH = '/xml-rpc';
/**
 * A method call of this module is a few hundred bytes (one small struct); 64 KiB leaves ample room
 * and bounds what an unauthenticated sender can make the server read (issue 12, defect 5).
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** Below the web server's 30 s request timeout, so this module answers first. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

export interface XmlRpcHandlerOptions {
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  /** Payload source; default: the shared snapshot (`cache`) rendered as the data endpoint does. */
  data?: MonitoringData;
}

const XML_MEDIA_TYPES = new Set(['text/xml', 'application/xml']);
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * The XML-RPC face of the simulated PBX (XMLRPC-ENDPOINT): a thin HTTP adapter around
 * `dispatchXmlRpcCall`, using the `xmlrpc` package's codec but not its server (which hides the
 * query string carrying the credentials and answers unknown methods with HTTP 404).
 *
 * HTTP-level answers (docs/simulator.md, "XML-RPC"); everything else is HTTP 200 with a
 * `methodResponse`, faults included (XMLRPC-UNSPEC-FAULTS):
 * - a path other than exactly `/xml-rpc` (query string allowed): 404;
 * - a method other than POST: 405 with `Allow: POST`;
 * - a `Content-Type` other than `text/xml` or `application/xml`, or a charset parameter other
 *   than UTF-8 (or its subset US-ASCII): 415; a missing `Content-Type` also gets 415;
 * - a body above `maxBodyBytes` (default 64 KiB; declared or counted while streaming): 413;
 * - a body not complete within `bodyTimeoutMs`: 408.
 * Those answers carry `Connection: close`, so an unread body is never drained.
 * A data query whose method name stands plainly at the start of the body is checked for
 * credentials before the body is parsed; any character XML does not allow is the fault -32700.
 */
export function createXmlRpcHandler(
  store: PbxStore,
  cache: SnapshotCache,
  options: XmlRpcHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const data = options.data ?? snapshotMonitoringData(store, cache);
  const limits = {
    maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
  };
  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      store.log('error', 'xmlrpc', `request failed: ${errorMessage(error)}`);
      if (!res.headersSent) sendText(res, 500, 'internal server error\n');
      else res.destroy();
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const path = queryStart < 0 ? rawUrl : rawUrl.slice(0, queryStart);
    if (path !== XMLRPC_PATH) return sendText(res, 404, 'not found\n');
    if (req.method !== 'POST')
      return sendText(res, 405, 'method not allowed: XML-RPC takes POST\n', { allow: 'POST' });
    if (!isUtf8Xml(req.headers['content-type'])) {
      return sendText(res, 415, 'unsupported media type: send text/xml in UTF-8\n');
    }
    const read = await streamBody(req, limits.maxBytes, limits.timeoutMs);
    switch (read.kind) {
      case 'aborted':
        res.destroy();
        return;
      case 'too-large':
        return sendText(res, 413, `request body larger than ${limits.maxBytes} bytes\n`);
      case 'timeout':
        return sendText(res, 408, `request body not complete within ${limits.timeoutMs} ms\n`);
      case 'complete':
        break;
    }
    // URLSearchParams decodes as application/x-www-form-urlencoded: `%3A` and a raw `:` are the
    // same, and a raw `+` is a space (as in servlet containers), so clients percent-encode `+`.
    const query = new URLSearchParams(queryStart < 0 ? '' : rawUrl.slice(queryStart + 1));
    // XMLRPC-AUTH-BEFORE-HANDLER, and before the parse where the protocol allows: a data query
    // whose credentials fail is answered from the method name alone (issue 12, defect 5).
    const prescanned = prescanMethodName(read.body);
    const early = prescanned === undefined ? null : preParseAuthFault({ store, data }, prescanned, query);
    if (early)
      return sendXml(
        res,
        answer(() => early, prescanned ?? ''),
      );
    const parsed = await parseMethodCall(read.body);
    if (!parsed.ok) return sendXml(res, serializeFault(parsed.fault));
    sendXml(
      res,
      answer(() => dispatchXmlRpcCall({ store, data }, parsed, query), parsed.methodName),
    );
  }

  /** Anything the dispatcher or serialiser throws becomes the fault -32603, details in the module log. */
  function answer(dispatch: () => XmlRpcOutcome, methodName: string): string {
    try {
      const outcome = dispatch();
      return outcome.kind === 'result' ? serializeResult(outcome.value) : serializeFault(outcome.fault);
    } catch (error) {
      store.log(
        'error',
        'xmlrpc',
        `internal error answering ${methodName.slice(0, 100)}: ${errorMessage(error)}`,
      );
      return serializeFault(xmlRpcFault(FAULT_CODES.internalError, 'internal error'));
    }
  }
}

function isUtf8Xml(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [mediaType = '', ...parameters] = contentType.split(';');
  if (!XML_MEDIA_TYPES.has(mediaType.trim().toLowerCase())) return false;
  for (const parameter of parameters) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (!UTF8_CHARSETS.has(charset)) return false;
  }
  return true;
}

function sendXml(res: ServerResponse, xml: string): void {
  const body = Buffer.from(xml, 'utf8');
  res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders = {},
): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': body.length,
    connection: 'close',
  });
  res.end(body);
}

function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
