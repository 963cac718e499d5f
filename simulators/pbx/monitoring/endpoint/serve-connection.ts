import type { Socket } from 'node:net';
import type { Clock, TimerId } from '../../../shared/clock.ts';
import { UNREAD_BODY_LIMIT_BYTES } from '../../../shared/http/slow-clients.ts';
import type { EndpointRequest } from './answer-request.ts';
import type { EndpointLimits } from './endpoint-limits.ts';
import { type HeadVerdict, inspectHead } from './request-head.ts';

export interface ConnectionContext<Tag = undefined> {
  limits: Pick<EndpointLimits, 'maxHeadBytes' | 'headTimeoutMs' | 'answerTimeoutMs'>;
  /** How long a silent client is given before it gets the raw answer (MON-UNSPEC-RAW-DETECTION). */
  rawGraceMs: number;
  /**
   * The PBX's duration clock (clock.ts, `durationClock`): the raw-mode grace runs on it. Real
   * time, unless a harness that owns this PBX in its own process lets a silent client's grace
   * pass on it instead of waiting.
   */
  durationClock: Clock;
  /** Whether the peer is listed (MON-AUTH-UNLISTED-CLOSED); asked once per connection. */
  isAllowed(remoteAddress: string | undefined): boolean;
  /** The bytes to write for a request, at once or timed (a replayed recording); must not throw. */
  answer(request: EndpointRequest): Buffer[] | TimedAnswer;
  /**
   * Called once, when the answer has been queued (the connection then only drains and closes),
   * with the tag `serveConnection` was given.
   */
  onAnswered?(tag: Tag): void;
  /** Called once, when the socket has closed, with the tag `serveConnection` was given. */
  onClosed?(tag: Tag): void;
}

/**
 * An answer written chunk by chunk, each after its delay (real timers), then, `closeDelayMs` after
 * the last chunk, ended (`end`), reset (`reset`) or held open until the client gives up (`hold`,
 * bounded by the answer timeout): how `simulate --recording` replays a recorded PBX's timing and
 * how its connection ended.
 */
export interface TimedAnswer {
  chunks: { delayMs: number; bytes: Buffer }[];
  close: 'end' | 'reset' | 'hold';
  closeDelayMs?: number;
}

/**
 * How far a connection has come, which decides what the endpoint closes first when its table is
 * full (monitoring-endpoint.ts): `silent` has sent nothing yet, `receiving` has sent part of a
 * request head, `answered` has its answer queued and only waits for the client to close.
 */
export type ConnectionPhase = 'silent' | 'receiving' | 'answered';

/** What the endpoint may ask of a connection being served. */
export interface ServedConnection {
  phase(): ConnectionPhase;
}

const EMPTY = Buffer.alloc(0);

function destroySocket(socket: Socket): void {
  socket.destroy();
}

function headTimedOut(connection: Connection<unknown>): void {
  connection.headTimer = undefined;
  connection.finish(connection.received.length === 0 ? { mode: 'raw' } : { mode: 'http-error', status: 408 });
}

/**
 * Moves the bytes of one accepted connection (the listener side of the socket-free core).
 *
 * An unlisted peer is closed at once, before anything is read or written (MON-AUTH-UNLISTED-CLOSED).
 * Being listed is all a peer needs: no sign-in and no credentials are asked (MON-AUTH-NO-SIGNIN).
 * A listed peer that sends nothing within `rawGraceMs`, or closes its sending side without
 * sending, gets the raw answer (MON-RAW-MODE); bytes are classified by `inspectHead`. After the
 * answer is queued the write side is ended; input that still arrives (a request body) is read and
 * dropped so the close is orderly rather than a reset, up to 64 KiB (`UNREAD_BODY_LIMIT_BYTES`,
 * then the socket is destroyed), and the socket is destroyed when the answer timeout passes. No
 * timer follows the PBX's virtual clock: the grace runs on the duration clock, the transport
 * timeouts on real timers. Socket errors (resets, broken pipes) only end this connection.
 *
 * One object per connection with its methods on the prototype, and timers that call shared
 * functions (issue 31 §3: a poller opens a connection per fetch; closures and timers made per
 * connection were a tenth of the endpoint's time). `tag` goes back to `onAnswered` and `onClosed`.
 */
export function serveConnection<Tag = undefined>(
  socket: Socket,
  context: ConnectionContext<Tag>,
  tag?: Tag,
): ServedConnection {
  socket.on('error', () => socket.destroy());
  if (!context.isAllowed(socket.remoteAddress)) {
    if (context.onClosed) socket.once('close', () => context.onClosed?.(tag as Tag));
    socket.destroy();
    return { phase: () => 'answered' };
  }
  const connection = new Connection(socket, context, tag as Tag);
  connection.start(context.rawGraceMs);
  return connection;
}

class Connection<Tag> implements ServedConnection {
  received: Buffer = EMPTY;
  headTimer: NodeJS.Timeout | undefined;
  /** When the head is due (`performance.now()`), while its timer is not armed yet. */
  private headDueAt: number | undefined;
  private answered = false;
  private grace: TimerId | undefined;
  private answerTimer: NodeJS.Timeout | undefined;
  /** Timers of a timed answer (a replayed recording). */
  private timed: Set<NodeJS.Timeout> | undefined;
  private droppedAfterAnswer = 0;

  constructor(
    private readonly socket: Socket,
    private readonly context: ConnectionContext<Tag>,
    private readonly tag: Tag,
  ) {}

  /**
   * The head timeout counts from the connection (`EndpointLimits.headTimeoutMs`), but its timer
   * is armed only when it can matter (issue 31 §3: a poller's first read is its whole head, so
   * its connection never needed it): at the first read that leaves the head incomplete, for what
   * is left of the timeout. A silent client is ended by the grace first, when the grace runs in
   * real time (a running duration clock) and is the shorter; otherwise the timer is armed here,
   * as it always was.
   */
  start(rawGraceMs: number): void {
    const { socket, context } = this;
    const { headTimeoutMs } = context.limits;
    this.grace = context.durationClock.setTimer(() => {
      this.grace = undefined;
      if (this.received.length === 0) this.finish({ mode: 'raw' });
    }, rawGraceMs);
    if (rawGraceMs < headTimeoutMs && context.durationClock.mode === 'running')
      this.headDueAt = performance.now() + headTimeoutMs;
    else this.headTimer = setTimeout(headTimedOut, headTimeoutMs, this);
    socket.on('data', (chunk: Buffer) => this.data(chunk));
    socket.on('end', () => {
      if (!this.answered) this.decide(inspectHead(this.received, true, this.context.limits.maxHeadBytes));
    });
    socket.on('close', () => {
      this.clearTimers();
      this.received = EMPTY;
      this.context.onClosed?.(this.tag);
    });
  }

  phase(): ConnectionPhase {
    return this.answered ? 'answered' : this.received.length === 0 ? 'silent' : 'receiving';
  }

  private data(chunk: Buffer): void {
    if (this.answered) {
      // A client that goes on sending after its answer (a request body) may send a little, not
      // gigabytes: past the bound every face shares, the connection is dropped (issue 29 item 2).
      this.droppedAfterAnswer += chunk.length;
      if (this.droppedAfterAnswer > UNREAD_BODY_LIMIT_BYTES) this.socket.destroy();
      return;
    }
    this.clearGrace();
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    this.decide(inspectHead(this.received, false, this.context.limits.maxHeadBytes));
    if (!this.answered && this.headTimer === undefined && this.headDueAt !== undefined) {
      this.headTimer = setTimeout(headTimedOut, Math.max(0, this.headDueAt - performance.now()), this);
      this.headDueAt = undefined;
    }
  }

  private decide(verdict: HeadVerdict): void {
    if (verdict.kind === 'raw') this.finish({ mode: 'raw' });
    else if (verdict.kind === 'http')
      this.finish({ mode: 'http', method: verdict.method, target: verdict.target });
    else if (verdict.kind === 'too-large') this.finish({ mode: 'http-error', status: 400 });
  }

  finish(request: EndpointRequest): void {
    if (this.answered) return;
    this.answered = true;
    this.clearTimers();
    this.received = EMPTY;
    const { socket, context } = this;
    context.onAnswered?.(this.tag);
    if (socket.destroyed) return;
    let chunks: Buffer[] | TimedAnswer;
    try {
      chunks = context.answer(request);
    } catch {
      socket.destroy();
      return;
    }
    if (!Array.isArray(chunks)) {
      this.writeTimed(chunks);
      return;
    }
    // One ready buffer (a poller's answer) is one write and the end, as the bare server does.
    if (chunks.length === 1) socket.end(chunks[0] as Buffer);
    else {
      socket.cork();
      for (const chunk of chunks) socket.write(chunk);
      socket.end();
    }
    this.answerTimer = setTimeout(destroySocket, context.limits.answerTimeoutMs, socket);
  }

  private after(ms: number, run: () => void): void {
    this.timed ??= new Set();
    const timers = this.timed;
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  }

  /**
   * Writes the chunks in a loop: the chunks due now (delay 0) go out in one pass, and a delayed
   * chunk resumes the loop from its timer. A recording may hold thousands of chunks at the same
   * moment (one per byte), so no call may nest per chunk.
   */
  private writeTimed(answer: TimedAnswer): void {
    const { socket } = this;
    const { answerTimeoutMs } = this.context.limits;
    const endThenDrop = () => {
      if (socket.destroyed) return;
      socket.end();
      this.after(answerTimeoutMs, () => socket.destroy());
    };
    const from = (start: number) => {
      for (let index = start; index < answer.chunks.length; index++) {
        if (socket.destroyed) return;
        const chunk = answer.chunks[index]!;
        if (chunk.delayMs > 0 && index > start) {
          this.after(chunk.delayMs, () => from(index));
          return;
        }
        socket.write(chunk.bytes);
      }
      if (socket.destroyed) return;
      const delayMs = answer.closeDelayMs ?? 0;
      if (answer.close === 'hold') {
        // Open until the client gives up (its end closes the connection), bounded.
        socket.once('end', () => socket.destroy());
        this.after(answerTimeoutMs + delayMs, () => socket.destroy());
      }
      // A reset in the same turn as the last write reaches a node client as an orderly end, so
      // it waits at least one turn for the bytes to leave.
      else if (answer.close === 'reset')
        this.after(delayMs, () => {
          if (!socket.destroyed) socket.resetAndDestroy();
        });
      else if (delayMs > 0) this.after(delayMs, endThenDrop);
      else endThenDrop();
    };
    const first = answer.chunks[0];
    if (first && first.delayMs > 0) this.after(first.delayMs, () => from(0));
    else from(0);
  }

  private clearGrace(): void {
    if (this.grace !== undefined) this.context.durationClock.clearTimer(this.grace);
    this.grace = undefined;
  }

  private clearTimers(): void {
    this.clearGrace();
    if (this.headTimer !== undefined) clearTimeout(this.headTimer);
    this.headTimer = undefined;
    if (this.answerTimer !== undefined) clearTimeout(this.answerTimer);
    this.answerTimer = undefined;
    if (this.timed) for (const timer of this.timed) clearTimeout(timer);
    this.timed?.clear();
  }
}
