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
  const read = new BodyRead(maxBytes, done, deadlines(timeoutMs));
  // Inline callbacks, and listeners left in place after the end (they see `done`): this runs
  // once per request, and named closures or `off()` calls cost more than the read itself.
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

const NO_CALLBACK = (_result: StreamedBody): void => {};
const TOO_LARGE: StreamedBody = Object.freeze({ kind: 'too-large' });
const TIMEOUT: StreamedBody = Object.freeze({ kind: 'timeout' });
const ABORTED: StreamedBody = Object.freeze({ kind: 'aborted' });

/**
 * The deadlines of the body reads under way with one time limit (issue 31 §3: a timer of its own
 * for every read — the timer, its list insertion, `unref` and clear — was about 2 % of the
 * maintenance face). Reads with the same limit fall due in
 * the order they began, so they wait in one queue, and one real timer is armed for the oldest read
 * still running; a read that finishes is dropped from the front when it gets there. A read that
 * has not finished at its deadline ends as `timeout`, at that deadline, as with its own timer.
 */
class DeadlineQueue {
  private reads: BodyRead[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(private readonly timeoutMs: number) {}

  /** Starts the clock of `read`; its deadline is `timeoutMs` from now. */
  add(read: BodyRead): number {
    const deadline = performance.now() + this.timeoutMs;
    this.reads.push(read);
    // While `due` runs (a timed-out read's callback may start another), it arms the timer itself.
    if (this.timer === undefined && !this.sweeping) this.arm(this.timeoutMs);
    return deadline;
  }

  /** Drops the finished reads at the front, so a queue of finished reads does not grow. */
  trim(): void {
    const reads = this.reads;
    while (this.head < reads.length && reads[this.head]!.finished) this.head++;
    if (this.head === reads.length) {
      reads.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > reads.length) {
      this.reads = reads.slice(this.head);
      this.head = 0;
    }
  }

  /** Reads the queue holds, finished ones not yet dropped included (tests). */
  get size(): number {
    return this.reads.length - this.head;
  }

  private arm(delayMs: number): void {
    // Node fires a longer delay after 1 ms (TimeoutOverflowWarning): a later deadline re-arms.
    this.timer = setTimeout(() => this.due(), Math.min(Math.max(0, delayMs), MAX_TIMER_MS));
    this.timer.unref();
  }

  private due(): void {
    this.timer = undefined;
    this.sweeping = true;
    const now = performance.now();
    try {
      for (;;) {
        this.trim();
        const oldest = this.reads[this.head];
        if (oldest === undefined || oldest.deadline > now) return;
        oldest.finish(TIMEOUT);
      }
    } finally {
      this.sweeping = false;
      // Also when a read's callback threw: the reads behind it keep their deadlines.
      this.trim();
      const next = this.reads[this.head];
      if (next !== undefined && this.timer === undefined) this.arm(next.deadline - performance.now());
    }
  }
}

/** Longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One queue per time limit; the limits are the faces' settings, a handful. */
const queues = new Map<number, DeadlineQueue>();

function deadlines(timeoutMs: number): DeadlineQueue {
  let queue = queues.get(timeoutMs);
  if (!queue) {
    queue = new DeadlineQueue(timeoutMs);
    queues.set(timeoutMs, queue);
  }
  return queue;
}

/** Body reads waiting in the deadline queue of `timeoutMs` (tests: finished reads leave it). */
export function pendingBodyDeadlines(timeoutMs: number): number {
  return queues.get(timeoutMs)?.size ?? 0;
}

/** One body being read: the chunks so far, until the first outcome; later events change nothing. */
class BodyRead {
  readonly deadline: number;
  finished = false;
  private chunks: Buffer[] = [];
  private received = 0;

  constructor(
    private readonly maxBytes: number,
    private resolve: (result: StreamedBody) => void,
    private readonly queue: DeadlineQueue,
  ) {
    this.deadline = queue.add(this);
  }

  data(chunk: Buffer): void {
    if (this.finished) return;
    this.received += chunk.length;
    if (this.received > this.maxBytes) this.finish(TOO_LARGE);
    else this.chunks.push(chunk);
  }

  end(): void {
    if (this.finished) return;
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received);
    this.finish({ kind: 'complete', body });
  }

  finish(result: StreamedBody): void {
    if (this.finished) return;
    this.finished = true;
    this.chunks = [];
    // A finished read may wait in its queue behind a slow one: it keeps nothing of its request.
    const resolve = this.resolve;
    this.resolve = NO_CALLBACK;
    this.queue.trim();
    resolve(result);
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
