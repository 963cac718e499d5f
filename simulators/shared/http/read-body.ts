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
  return new Promise((resolve) => receiveBody(req, maxBytes, timeoutMs, resolve));
}

/**
 * {@link streamBody} with a callback instead of a promise, for a face's hot path (issue 31 §3: no
 * promise and no microtask turn per request): `done` is called exactly once, with the first
 * outcome, in the turn it happens in, or at once when the head already decides it.
 */
export function receiveBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  done: (result: StreamedBody) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    done(TOO_LARGE);
    return;
  }
  if (req.readableEnded || hasNoBody(req)) {
    done({ kind: 'complete', body: Buffer.alloc(0) });
    return;
  }
  const read = new BodyRead(maxBytes, done);
  // Inline callbacks, and listeners left in place after the end (they see `done`): this runs
  // once per request, and named closures or `off()` calls cost more than the read itself.
  read.timer = setTimeout(() => read.finish(TIMEOUT), timeoutMs);
  read.timer.unref();
  req.on('data', (chunk: Buffer) => read.data(chunk));
  req.on('end', () => read.end());
  req.on('error', () => read.finish(ABORTED));
  req.on('close', () => {
    if (!req.complete) read.finish(ABORTED);
  });
}

/**
 * Whether a request carries no body by its head alone (RFC 9112 §6.3: neither `Transfer-Encoding`
 * nor a `Content-Length` above 0), so there is nothing to wait for: a GET is answered in the turn
 * its head arrived in, without a timer and listeners per request (issue 31 §3). node:http drains
 * the (empty) request itself once the answer is written.
 */
export function hasNoBody(req: IncomingMessage): boolean {
  const { headers } = req;
  if (headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  return length === undefined || length === '0';
}

const TOO_LARGE: StreamedBody = Object.freeze({ kind: 'too-large' });
const TIMEOUT: StreamedBody = Object.freeze({ kind: 'timeout' });
const ABORTED: StreamedBody = Object.freeze({ kind: 'aborted' });

/** One body being read: the chunks so far, until the first outcome; later events change nothing. */
class BodyRead {
  timer: NodeJS.Timeout | undefined;
  private chunks: Buffer[] = [];
  private received = 0;
  private done = false;

  constructor(
    private readonly maxBytes: number,
    private readonly resolve: (result: StreamedBody) => void,
  ) {}

  data(chunk: Buffer): void {
    if (this.done) return;
    this.received += chunk.length;
    if (this.received > this.maxBytes) this.finish(TOO_LARGE);
    else this.chunks.push(chunk);
  }

  end(): void {
    if (this.done) return;
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received);
    this.finish({ kind: 'complete', body });
  }

  finish(result: StreamedBody): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.chunks = [];
    this.resolve(result);
  }
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

/** A body over the bound (HTTP 413), or one that did not arrive in time or was cut off. */
export class BodyReadError extends Error {
  override name = 'BodyReadError';
  constructor(readonly kind: 'too-large' | 'timeout' | 'aborted') {
    super(
      kind === 'too-large'
        ? 'the request body is too large'
        : `the request body was ${kind === 'timeout' ? 'not complete in time' : 'cut off'}`,
    );
  }
}

/**
 * The whole body, or a rejection with {@link BodyReadError}: {@link streamBody} for callers that
 * answer every failure alike (the control planes, the fleet's REST and MCP faces).
 */
export async function readBody(req: IncomingMessage, maxBytes: number, timeoutMs = 30_000): Promise<Buffer> {
  const streamed = await streamBody(req, maxBytes, timeoutMs);
  if (streamed.kind === 'complete') return streamed.body;
  throw new BodyReadError(streamed.kind);
}

/** Whether `error` is a body over the bound (answered 413). */
export function isBodyTooLarge(error: unknown): boolean {
  return error instanceof BodyReadError && error.kind === 'too-large';
}
