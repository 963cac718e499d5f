import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { discardBody, receiveBody, type StreamedBody } from '../../shared/http/read-body.ts';
import { MAX_BODY_BYTES, type MaintenanceApi } from './maintenance-api.ts';
import {
  bodyTooLargeResponse,
  commandFailedResponse,
  type MaintenanceResponse,
} from './maintenance-responses.ts';

export interface MaintenanceHandlerOptions {
  /** Real-time limit for a whole body to arrive, in ms (default 10 000); then the connection is dropped. */
  bodyTimeoutMs?: number;
  /**
   * Real-time limit for the unread rest of a body after an early answer (401, 404, 413) to
   * arrive and be dropped, in ms (default 30 000); then the connection is dropped.
   */
  discardTimeoutMs?: number;
}

/** The header lines of an answer, `Content-Length` included; the fixed answers' are built once. */
const headLines = new WeakMap<MaintenanceResponse, OutgoingHttpHeaders>();

function send(res: ServerResponse, response: MaintenanceResponse): void {
  if (res.headersSent || res.destroyed) return;
  let headers = headLines.get(response);
  if (!headers) {
    headers = { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) };
    headLines.set(response, headers);
  }
  res.writeHead(response.status, headers);
  res.end(response.body);
}

/** A simulator bug must not become an unhandled rejection that ends the process. */
function completeSafely(
  complete: (body: Uint8Array) => MaintenanceResponse,
  body: Uint8Array,
): MaintenanceResponse {
  try {
    return complete(body);
  } catch {
    return commandFailedResponse();
  }
}

/**
 * The node:http listener of interface A: a thin adapter around `createMaintenanceApi`. It decides
 * from the request head first and reads a body only for a POST of a known command with a valid
 * token. The body is counted as it streams and never buffered beyond 1 MiB + 1 byte: over the
 * limit the 413 goes out at once and the rest is dropped unread (MAINT-ERR-413-BODY-TOO-LARGE). A
 * body that does not arrive within `bodyTimeoutMs` ends the connection without an answer, as the
 * error table has no entry for it. Mount it on the PBX web server under `MAINTENANCE_BASE_PATH`.
 * It passes method, target and headers only: the client address never reaches the core and no
 * per-client count is kept, on purpose (MAINT-AUTH-NO-IP-RESTRICTION, MAINT-AUTH-NO-LOCKOUT,
 * MAINT-NO-RATE-LIMIT).
 */
export function createMaintenanceHandler(
  api: MaintenanceApi,
  options: MaintenanceHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  const discardTimeoutMs = options.discardTimeoutMs ?? 30_000;
  return (req, res) => {
    let decision: ReturnType<MaintenanceApi['head']>;
    try {
      decision = api.head({ method: req.method ?? 'GET', target: req.url ?? '/', headers: req.headers });
    } catch {
      req.on('error', () => res.destroy());
      send(res, commandFailedResponse());
      discardBody(req, discardTimeoutMs);
      return;
    }
    if (decision.kind === 'respond') {
      req.on('error', () => res.destroy());
      send(res, decision.response);
      discardBody(req, discardTimeoutMs);
      return;
    }
    // The read's own listeners see an error or an early close (`aborted`, the socket destroyed),
    // and the answer is written in the turn the body completes, without a promise in between.
    const { complete } = decision;
    receiveBody(req, MAX_BODY_BYTES, bodyTimeoutMs, (streamed: StreamedBody) => {
      switch (streamed.kind) {
        case 'complete':
          send(res, completeSafely(complete, streamed.body));
          return;
        case 'too-large':
          send(res, bodyTooLargeResponse());
          discardBody(req, discardTimeoutMs);
          return;
        case 'timeout':
        case 'aborted':
          req.socket.destroy();
          return;
      }
    });
  };
}
