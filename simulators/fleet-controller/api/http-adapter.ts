import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isBodyTooLarge, readBody } from '../../shared/http/read-body.ts';
import { type ApiRequest, type ApiResponse, payloadTooLarge } from './api-core.ts';

/** Request bodies of interface B are tiny (a comment of 1000 characters); larger ones get 413. */
export const MAX_API_BODY_BYTES = 64 * 1024;

/**
 * Makes `server` answer a request whose client has already half-closed (shut down its sending
 * side, as `curl` and `nc -N` do) instead of dropping the answer (issue 12, defect 3).
 *
 * By default node:http ends the socket as soon as the client's FIN arrives, so an answer that is
 * computed asynchronously (the scrypt hash of Basic credentials, a database write) finds the socket
 * gone and 0 bytes go out. With `httpAllowHalfOpen` (a property of `http.Server` that Node has had
 * since v0.x but does not declare in its types) node:http marks the pending response as the last
 * one and closes the socket after writing it. The socket stays writable until then; the request
 * and header timeouts still bound a client that never reads.
 */
export function answerAfterHalfClose(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}

/** Wraps the socket-free REST core as a node:http handler. */
export function toNodeHandler(core: (req: ApiRequest) => Promise<ApiResponse>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let response: ApiResponse;
    try {
      const body = await readBody(req, MAX_API_BODY_BYTES);
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      response = await core({ method: req.method ?? 'GET', url: req.url ?? '/', headers, body });
    } catch (error) {
      response = isBodyTooLarge(error) ? payloadTooLarge() : { status: 500, headers: {} };
      if (isBodyTooLarge(error)) response.headers['connection'] = 'close';
    }
    writeResponse(res, response);
  };
}

export function writeResponse(res: ServerResponse, response: ApiResponse): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...response.headers };
  const body = response.body === undefined ? undefined : (response.bytes ?? response.body);
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  else if (response.status !== 304) headers['content-length'] = 0;
  res.writeHead(response.status, headers);
  res.end(body);
}
