import type { IncomingMessage } from 'node:http';

/** The body exceeded the bound; the request is answered 413 and the rest is not read. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Reads a request body of at most `maxBytes`. A declared or actual excess rejects with
 * `BodyTooLargeError` without buffering more than the bound.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      req.resume();
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}
