import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { streamBody } from '../../shared/http/read-body.ts';
import type { SnapshotCache } from '../snapshot/snapshot.ts';
import type { PbxStore } from '../state/store.ts';
import { verifyXmlRpcAuth } from './auth.ts';
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
/**
 * The body of a request without valid credentials: a call of the one method that needs none
 * (`isActiveDirectoryEnabled`, an empty struct) or a data query about to be refused is a few
 * hundred bytes, so a larger body is 413 before it costs a parse (issue 20, item 2).
 */
export const DEFAULT_UNAUTHENTICATED_MAX_BODY_BYTES = 4 * 1024;
/**
 * Bytes per second, over all requests without valid credentials, that this handler parses in full
 * (a burst of as many); beyond that such a request is 429 (issue 20, item 2). A full parse costs
 * about 0.35 µs per byte, so this bounds their parsing to a few per cent of one core whatever the
 * body shape and however many senders there are. Calls whose method name the pre-scan finds are
 * refused from that name and do not draw on it.
 */
export const DEFAULT_UNAUTHENTICATED_PARSE_BYTES_PER_SECOND = 64 * 1024;

export interface XmlRpcHandlerOptions {
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  /** Body limit without valid credentials (default `DEFAULT_UNAUTHENTICATED_MAX_BODY_BYTES`). */
  unauthenticatedMaxBodyBytes?: number;
  /** Parse budget without valid credentials (default `DEFAULT_UNAUTHENTICATED_PARSE_BYTES_PER_SECOND`). */
  unauthenticatedParseBytesPerSecond?: number;
  /** Monotonic milliseconds for the parse budget (tests pass their own); default `performance.now`. */
  now?: () => number;
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
 *   without valid credentials in the URL the limit is `unauthenticatedMaxBodyBytes` (4 KiB);
 * - a body not complete within `bodyTimeoutMs`: 408;
 * - without valid credentials, a body that needs a full parse while the handler's unauthenticated
 *   parse budget is spent: 429 with `Retry-After`.
 * Those answers carry `Connection: close`, so an unread body is never drained.
 * A data query whose method name stands plainly at the start of the body is checked for
 * credentials before the body is parsed; any character XML does not allow is the fault -32700.
 * So whatever the shape of its body, a request without credentials costs at most one parse of
 * 4 KiB, and all of them together at most the budget (issue 20, item 2; MON-UNSPEC-LIMITS).
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
    unauthenticatedMaxBytes: options.unauthenticatedMaxBodyBytes ?? DEFAULT_UNAUTHENTICATED_MAX_BODY_BYTES,
  };
  const parseBudget = new ByteBudget(
    options.unauthenticatedParseBytesPerSecond ?? DEFAULT_UNAUTHENTICATED_PARSE_BYTES_PER_SECOND,
    options.now ?? (() => performance.now()),
  );
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
    // URLSearchParams decodes as application/x-www-form-urlencoded: `%3A` and a raw `:` are the
    // same, and a raw `+` is a space (as in servlet containers), so clients percent-encode `+`.
    const query = new URLSearchParams(queryStart < 0 ? '' : rawUrl.slice(queryStart + 1));
    const { authParam } = store.read().monitoring;
    // Only the URL decides this, so it is known before a byte of the body is read.
    const signedIn = verifyXmlRpcAuth(query.get(authParam), store.read().users).ok;
    const maxBytes = signedIn ? limits.maxBytes : Math.min(limits.maxBytes, limits.unauthenticatedMaxBytes);
    const read = await streamBody(req, maxBytes, limits.timeoutMs);
    switch (read.kind) {
      case 'aborted':
        res.destroy();
        return;
      case 'too-large':
        return sendText(
          res,
          413,
          signedIn
            ? `request body larger than ${maxBytes} bytes\n`
            : `request body larger than ${maxBytes} bytes without valid credentials in URL parameter ${authParam}\n`,
        );
      case 'timeout':
        return sendText(res, 408, `request body not complete within ${limits.timeoutMs} ms\n`);
      case 'complete':
        break;
    }
    // XMLRPC-AUTH-BEFORE-HANDLER, and before the parse where the protocol allows: a data query
    // whose credentials fail is answered from the method name alone (issue 12, defect 5).
    const prescanned = signedIn ? undefined : prescanMethodName(read.body);
    const early = prescanned === undefined ? null : preParseAuthFault({ store, data }, prescanned, query);
    if (early)
      return sendXml(
        res,
        answer(() => early, prescanned ?? ''),
      );
    if (!signedIn) {
      const waitMs = parseBudget.take(read.body.length);
      if (waitMs > 0)
        return sendText(res, 429, 'too many requests without valid credentials: try again later\n', {
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
    }
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

/**
 * A token bucket of bytes, refilled at `perSecond` up to one second's worth. `take` spends `bytes`
 * and returns 0, or spends nothing and returns how many milliseconds until it could.
 */
class ByteBudget {
  private available: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.available = perSecond;
    this.last = now();
  }

  take(bytes: number): number {
    const now = this.now();
    this.available = Math.min(this.perSecond, this.available + ((now - this.last) * this.perSecond) / 1000);
    this.last = now;
    if (bytes <= this.available || this.available >= this.perSecond) {
      this.available -= bytes;
      return 0;
    }
    return Math.max(1, ((Math.min(bytes, this.perSecond) - this.available) * 1000) / this.perSecond);
    // (A body larger than a whole second's worth passes once the bucket is full.)
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
