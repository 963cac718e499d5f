import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { hasNoBody, isBodyTooLarge, readBody } from '../../shared/http/read-body.ts';
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

/** What the core answers: at once where it can (a remembered sign-in), else later. */
type CoreAnswer = ApiResponse | Promise<ApiResponse>;

const EMPTY_BODY = Buffer.alloc(0);

/**
 * Wraps the socket-free REST core as a node:http handler. A request without a body (every GET)
 * goes to the core in the turn its head arrived in, and an answer the core has at once is written
 * in that turn too (issue 31 §3: no body read, promise or header copy on the `/sites` path).
 *
 * The core gets node's header object as it is: every field in it is a string (repeated fields
 * joined with `, `) except `set-cookie`, which the REST core never reads.
 */
export function toNodeHandler(core: (req: ApiRequest) => CoreAnswer) {
  const failed = (res: ServerResponse, error: unknown) => {
    const response: ApiResponse = isBodyTooLarge(error) ? payloadTooLarge() : { status: 500, headers: {} };
    if (isBodyTooLarge(error)) response.headers['connection'] = 'close';
    writeResponse(res, response);
  };
  const answer = (res: ServerResponse, answered: CoreAnswer) => {
    if (answered instanceof Promise)
      answered.then(
        (response) => writeResponse(res, response),
        (error: unknown) => failed(res, error),
      );
    else writeResponse(res, answered);
  };
  const call = (req: IncomingMessage, body: Buffer): CoreAnswer =>
    core({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers as Record<string, string | undefined>,
      body,
    });
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (hasNoBody(req)) {
      try {
        answer(res, call(req, EMPTY_BODY));
      } catch (error) {
        failed(res, error);
      }
      return;
    }
    readBody(req, MAX_API_BODY_BYTES).then(
      (body) => {
        try {
          answer(res, call(req, body));
        } catch (error) {
          failed(res, error);
        }
      },
      (error: unknown) => failed(res, error),
    );
  };
}

export function writeResponse(res: ServerResponse, response: ApiResponse): void {
  if (res.headersSent) return;
  if (response.rawHeaders) {
    res.writeHead(response.status, response.rawHeaders as string[]);
    if (response.chunks) {
      // One writev for the head and every block (`end` uncorks); no copy of the body.
      res.cork();
      for (const chunk of response.chunks) res.write(chunk);
      res.end();
      return;
    }
    res.end(response.bytes ?? response.body);
    return;
  }
  const headers: Record<string, string | number> = { ...response.headers };
  const body = response.body === undefined ? undefined : (response.bytes ?? response.body);
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  else if (response.status !== 304 && headers['content-length'] === undefined) headers['content-length'] = 0;
  res.writeHead(response.status, headers);
  res.end(body);
}
