import type { IncomingMessage } from 'node:http';

export type StreamedBody =
  | { kind: 'complete'; body: Buffer }
  | { kind: 'too-large' }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/**
 * Reads a request body while counting its bytes, never holding more than `maxBytes`: a declared
 * `Content-Length` above the limit ends the read before any byte is taken, and a streamed body
 * ends it at the first chunk that crosses the limit (the chunks so far are released). A body that
 * has not fully arrived `timeoutMs` (real time) after the read began ends it as `timeout`, so a
 * client that trickles bytes cannot hold a request open. After `too-large` the rest of the body
 * is still arriving: the caller answers and then calls `discardBody`.
 */
export function streamBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<StreamedBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  if (req.readableEnded) return Promise.resolve({ kind: 'complete', body: Buffer.alloc(0) });
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let received = 0;
    const finish = (result: StreamedBody) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onClose);
      chunks = [];
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'complete', body: Buffer.concat(chunks, received) });
    const onAborted = () => finish({ kind: 'aborted' });
    const onClose = () => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onClose);
  });
}

/**
 * Lets the rest of a body arrive and drops every chunk unread (nothing is buffered), so a client
 * that is still sending gets to read the answer already written; the connection is destroyed if
 * the rest has not arrived within `deadlineMs` (real time).
 */
export function discardBody(req: IncomingMessage, deadlineMs: number): void {
  if (req.readableEnded || req.destroyed) return;
  const timer = setTimeout(() => req.socket.destroy(), deadlineMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
  req.on('error', done);
  req.on('data', () => {});
  req.resume();
}
