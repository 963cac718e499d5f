import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiRequest, type ApiResponse, payloadTooLarge } from './api-core.ts';
import { BodyTooLargeError, readBody } from './read-body.ts';

/** Request bodies of interface B are tiny (a comment of 1000 characters); larger ones get 413. */
export const MAX_API_BODY_BYTES = 64 * 1024;

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
      response = error instanceof BodyTooLargeError ? payloadTooLarge() : { status: 500, headers: {} };
      if (error instanceof BodyTooLargeError) response.headers['connection'] = 'close';
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
