import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Real-time limit for the whole body to arrive, in ms (a network timeout: never the virtual clock). */
  timeoutMs: number;
}

export type BodyReadResult =
  | { kind: 'complete'; body: Buffer }
  | { kind: 'too-large'; receivedBytes: number }
  | { kind: 'timeout'; receivedBytes: number }
  | { kind: 'aborted' };

/**
 * Reads a request body into memory, never holding more than `maxBytes`: a declared
 * `Content-Length` above the limit is refused before reading, and a streamed body is counted
 * chunk by chunk and abandoned (paused, no longer buffered) once it crosses the limit. A body that
 * has not arrived completely within `timeoutMs` is abandoned too. After `too-large` or `timeout`
 * the caller must answer with `Connection: close`, so Node closes the socket instead of draining.
 */
export function readBoundedBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyReadResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    req.pause();
    return Promise.resolve({ kind: 'too-large', receivedBytes: 0 });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (result: BodyReadResult) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      if (result.kind !== 'complete') {
        chunks.length = 0;
        req.pause();
      }
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) {
        finish({ kind: 'too-large', receivedBytes: received });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'complete', body: Buffer.concat(chunks, received) });
    const onAbort = () => finish({ kind: 'aborted' });
    const onClose = () => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', receivedBytes: received }), limits.timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}
