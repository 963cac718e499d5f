import type { Socket } from 'node:net';
import type { Clock, TimerId } from '../../../shared/clock.ts';
import { UNREAD_BODY_LIMIT_BYTES } from '../../../shared/http/slow-clients.ts';
import type { EndpointRequest } from './answer-request.ts';
import type { EndpointLimits } from './endpoint-limits.ts';
import { type HeadVerdict, inspectHead } from './request-head.ts';

export interface ConnectionContext {
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
  /** Called once, when the answer has been queued (the connection then only drains and closes). */
  onAnswered?(): void;
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

/**
 * Moves the bytes of one accepted connection (the listener side of the socket-free core).
 *
 * An unlisted peer is closed at once, before anything is read or written (MON-AUTH-UNLISTED-CLOSED).
 * Being listed is all a peer needs: no sign-in and no credentials are asked (MON-AUTH-NO-SIGNIN).
 * A listed peer that sends nothing within `rawGraceMs`, or closes its sending side without
 * sending, gets the raw answer (MON-RAW-MODE); bytes are classified by `inspectHead`. After the
 * answer is queued the write side is ended; input that still arrives (a request body) is read and
 * dropped so the close is orderly rather than a reset, up to 64 KiB (`UNREAD_BODY_LIMIT_BYTES`,
 * then the socket is destroyed), and the socket is destroyed when the answer timeout passes. No timer follows the PBX's virtual clock: the grace runs on the duration
 * clock, the transport timeouts on real timers. Socket errors (resets, broken pipes) only end this
 * connection.
 */
export function serveConnection(socket: Socket, context: ConnectionContext): ServedConnection {
  socket.on('error', () => socket.destroy());
  if (!context.isAllowed(socket.remoteAddress)) {
    socket.destroy();
    return { phase: () => 'answered' };
  }
  const { maxHeadBytes, headTimeoutMs, answerTimeoutMs } = context.limits;
  let received: Buffer = Buffer.alloc(0);
  let answered = false;
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return timer;
  };
  let grace: TimerId | undefined;
  const clearGrace = () => {
    if (grace !== undefined) context.durationClock.clearTimer(grace);
    grace = undefined;
  };
  const clearTimers = () => {
    clearGrace();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };

  const finish = (request: EndpointRequest) => {
    if (answered) return;
    answered = true;
    clearTimers();
    received = Buffer.alloc(0);
    context.onAnswered?.();
    if (socket.destroyed) return;
    let chunks: Buffer[] | TimedAnswer;
    try {
      chunks = context.answer(request);
    } catch {
      socket.destroy();
      return;
    }
    if (!Array.isArray(chunks)) return writeTimed(chunks);
    socket.cork();
    for (const chunk of chunks) socket.write(chunk);
    socket.end();
    after(answerTimeoutMs, () => socket.destroy());
  };

  /**
   * Writes the chunks in a loop: the chunks due now (delay 0) go out in one pass, and a delayed
   * chunk resumes the loop from its timer. A recording may hold thousands of chunks at the same
   * moment (one per byte), so no call may nest per chunk.
   */
  const writeTimed = (answer: TimedAnswer) => {
    const from = (start: number) => {
      for (let index = start; index < answer.chunks.length; index++) {
        if (socket.destroyed) return;
        const chunk = answer.chunks[index]!;
        if (chunk.delayMs > 0 && index > start) {
          after(chunk.delayMs, () => from(index));
          return;
        }
        socket.write(chunk.bytes);
      }
      if (socket.destroyed) return;
      const delayMs = answer.closeDelayMs ?? 0;
      if (answer.close === 'hold') {
        // Open until the client gives up (its end closes the connection), bounded.
        socket.once('end', () => socket.destroy());
        after(answerTimeoutMs + delayMs, () => socket.destroy());
      }
      // A reset in the same turn as the last write reaches a node client as an orderly end, so
      // it waits at least one turn for the bytes to leave.
      else if (answer.close === 'reset')
        after(delayMs, () => {
          if (!socket.destroyed) socket.resetAndDestroy();
        });
      else if (delayMs > 0) after(delayMs, endThenDrop);
      else endThenDrop();
    };
    const endThenDrop = () => {
      if (socket.destroyed) return;
      socket.end();
      after(answerTimeoutMs, () => socket.destroy());
    };
    const first = answer.chunks[0];
    if (first && first.delayMs > 0) after(first.delayMs, () => from(0));
    else from(0);
  };

  const decide = (verdict: HeadVerdict) => {
    if (verdict.kind === 'raw') finish({ mode: 'raw' });
    else if (verdict.kind === 'http')
      finish({ mode: 'http', method: verdict.method, target: verdict.target });
    else if (verdict.kind === 'too-large') finish({ mode: 'http-error', status: 400 });
  };

  grace = context.durationClock.setTimer(() => {
    grace = undefined;
    if (received.length === 0) finish({ mode: 'raw' });
  }, context.rawGraceMs);
  after(headTimeoutMs, () =>
    finish(received.length === 0 ? { mode: 'raw' } : { mode: 'http-error', status: 408 }),
  );

  let droppedAfterAnswer = 0;
  socket.on('data', (chunk: Buffer) => {
    if (answered) {
      // A client that goes on sending after its answer (a request body) may send a little, not
      // gigabytes: past the bound every face shares, the connection is dropped (issue 29 item 2).
      droppedAfterAnswer += chunk.length;
      if (droppedAfterAnswer > UNREAD_BODY_LIMIT_BYTES) socket.destroy();
      return;
    }
    clearGrace();
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
    decide(inspectHead(received, false, maxHeadBytes));
  });
  socket.on('end', () => {
    if (!answered) decide(inspectHead(received, true, maxHeadBytes));
  });
  socket.on('close', () => {
    clearTimers();
    received = Buffer.alloc(0);
  });
  return {
    phase: () => (answered ? 'answered' : received.length === 0 ? 'silent' : 'receiving'),
  };
}
