import { createContext, Script } from 'node:vm';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** One match as plain data: groups by number, `null` for a group that did not take part. */
export interface MatchData {
  groups: (string | null)[];
  index: number;
}

export type MatcherRun =
  | { ok: true; match: MatchData | null; count: number }
  | { ok: false; reason: 'syntax' | 'timeout'; message: string };

/** The matching itself, the same text in the V8 context and in the matcher thread. */
const MATCH = `
  const re = new RegExp(source, flags);
  const first = re.exec(body);
  let count = first ? 1 : 0;
  if (first && countLimit > 1) {
    const all = new RegExp(source, flags.includes('g') ? flags : flags + 'g');
    all.lastIndex = 0;
    count = 0;
    for (let m = all.exec(body); m !== null && count < countLimit; m = all.exec(body)) {
      count++;
      if (m[0] === '') all.lastIndex++;
    }
  }
  result = first ? { groups: Array.from(first, (g) => (g === undefined ? null : g)), index: first.index } : null;
  matches = count;
`;

const SCRIPT = new Script(`(() => {${MATCH}})()`);

/**
 * The one V8 context all runners share. Creating a context costs far more than a lookup's own
 * work, and sharing is safe: every run is synchronous and sets all its inputs first.
 */
let sharedContext: Record<string, unknown> | undefined;

function matcherContext(): Record<string, unknown> {
  sharedContext ??= createContext({
    body: '',
    source: '',
    flags: '',
    countLimit: 1,
    result: null,
    matches: 0,
  });
  return sharedContext;
}

/**
 * The matcher thread: it runs the matches of each message on its port (a list, in the order
 * sent) and answers them together, with their `seq`, on the same port. Before a run starts it
 * writes the run's start time (`startedAt[0]`, ms since the epoch) and then its `seq`
 * (`state[0]`), so the posting thread can time each run from its own start; `state[1]` says that
 * the thread listens. Plain JavaScript, so the thread needs no loader.
 */
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const state = new Int32Array(workerData.state);
const startedAt = new Float64Array(workerData.startedAt);
const port = workerData.port;
port.on('message', (runs) => {
  const replies = [];
  for (const { seq, body, source, flags, countLimit } of runs) {
    startedAt[0] = performance.timeOrigin + performance.now();
    Atomics.store(state, 0, seq);
    try {
      let result = null;
      let matches = 0;
      ${MATCH}
      replies.push({ seq, ok: true, result, matches });
    } catch (error) {
      replies.push({ seq, ok: false, message: String(error && error.message) });
    }
  }
  port.postMessage(replies);
});
Atomics.store(state, 1, 1);
`;

/** How long a listening matcher thread may take to pick a run up before the context runs it. */
const PICK_UP_MS = 1000;

type ThreadReply =
  | { seq: number; ok: true; result: MatchData | null; matches: number }
  | { seq: number; ok: false; message: string };

/** One run as the thread gets it. */
interface RunMessage {
  seq: number;
  body: string;
  source: string;
  flags: string;
  countLimit: number;
}

/** A run sent to the thread and not answered yet. */
interface PendingRun {
  seq: number;
  timeoutMs: number;
  /** When the run became the first unanswered one (the thread is free to pick it up). */
  headSince: number;
  /** The match, `'timeout'`, or `undefined` when the thread did not take the run (the context must). */
  settle: (reply: ThreadReply | 'timeout' | undefined) => void;
}

/** Milliseconds since the epoch, sub-millisecond, comparable across threads. */
function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * One thread that runs matchers while the lookup's thread goes on serving other lookups (issue 31
 * §3: the synchronous hand-off — `postMessage` and the wait — was 23 % of the busy time). The
 * runs asked for in one event-loop turn go to the thread as one message at the end of the turn
 * (`setImmediate`), and their answers come back as one message (issue 31 §3: one `postMessage`
 * per run was 8.5 % of the lookups' busy time at 16 at once). One timer per thread watches the
 * run the thread is on: a run is stopped at the matcher limit counted from its own start on the
 * thread (the start the thread writes to shared memory), never charged for the runs before it.
 * A run past the limit terminates the thread, which stops the pattern; the other unanswered runs
 * (those queued behind it, and those of its message already done but not yet answered) go to the
 * V8 context with its time limit, and the next run starts a new thread. Until a thread
 * listens (its start, about 30 ms) and whenever it does not pick a run up within `PICK_UP_MS`, the
 * run goes to the V8 context as before. The thread is `unref`'d; its port keeps the process alive
 * only while a run is unanswered.
 */
class MatcherThread {
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly startedAt = new Float64Array(new SharedArrayBuffer(8));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly pending = new Map<number, PendingRun>();
  /** Runs asked for in this turn, posted together at its end. */
  private queue: RunMessage[] = [];
  private posting: NodeJS.Immediate | undefined;
  private nextSeq = 1;
  private timer: NodeJS.Timeout | undefined;
  private dead = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(THREAD_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { state: this.state.buffer, startedAt: this.startedAt.buffer, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.on('message', (replies: ThreadReply[]) => this.answerAll(replies));
    this.port.unref();
    this.worker.on('error', () => this.stop());
    this.worker.on('exit', () => this.stop());
  }

  get usable(): boolean {
    return !this.dead && Atomics.load(this.state, 1) === 1;
  }

  /** The match, `'timeout'`, or `undefined` when the thread did not take the run (the context must). */
  run(
    input: { body: string; source: string; flags: string; countLimit: number },
    timeoutMs: number,
  ): Promise<ThreadReply | 'timeout' | undefined> {
    const seq = this.nextSeq++;
    return new Promise((settle) => {
      if (this.pending.size === 0) this.port.ref();
      this.pending.set(seq, { seq, timeoutMs, headSince: nowMs(), settle });
      this.queue.push({ seq, ...input });
      this.posting ??= setImmediate(() => this.post());
      this.timer ??= setTimeout(() => this.watch(), Math.min(timeoutMs, PICK_UP_MS)).unref();
    });
  }

  /** Sends the runs of the turn in one message. */
  private post(): void {
    this.posting = undefined;
    const runs = this.queue;
    this.queue = [];
    if (!this.dead && runs.length > 0) this.port.postMessage(runs);
  }

  private answerAll(replies: ThreadReply[]): void {
    for (const reply of replies) this.answer(reply);
  }

  private answer(reply: ThreadReply): void {
    const run = this.pending.get(reply.seq);
    if (!run) return;
    this.pending.delete(reply.seq);
    const head = this.pending.values().next().value;
    if (head) head.headSince = Math.max(head.headSince, nowMs());
    else this.port.unref();
    run.settle(reply);
  }

  /**
   * The timer: stops the run the thread is on when it is past its limit, stops the thread when it
   * does not pick up the oldest unanswered run in time, or watches again.
   */
  private watch(): void {
    this.timer = undefined;
    if (this.dead) return;
    const started = Atomics.load(this.state, 0);
    const startedAt = this.startedAt[0]!;
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port))
      this.answerAll(m.message as ThreadReply[]);
    const head = this.pending.values().next().value;
    if (!head) return;
    const now = nowMs();
    // The run the thread is on: the head, or one after it in the same message (the answers of a
    // message come together, so those before it are done but not yet answered).
    const current = started >= head.seq ? this.pending.get(started) : undefined;
    let wait: number;
    if (current) {
      const ran = now - startedAt;
      if (ran >= current.timeoutMs) {
        this.pending.delete(current.seq);
        current.settle('timeout');
        this.stop();
        return;
      }
      wait = current.timeoutMs - ran;
    } else if (started < head.seq) {
      const waited = now - head.headSince;
      if (waited >= PICK_UP_MS) {
        this.stop();
        return;
      }
      wait = Math.min(head.timeoutMs, PICK_UP_MS - waited);
    } else {
      // The thread is past every unanswered run: their answers are on the way. Look again soon.
      wait = 1;
    }
    this.timer = setTimeout(() => this.watch(), Math.max(1, Math.ceil(wait))).unref();
  }

  /** Terminates the thread; every unanswered run goes to the V8 context. */
  stop(): void {
    if (this.dead) return;
    this.dead = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.posting) clearImmediate(this.posting);
    this.posting = undefined;
    this.queue = [];
    void this.worker.terminate();
    this.port.close();
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const run of left) run.settle(undefined);
  }

  get stopped(): boolean {
    return this.dead;
  }
}

let sharedThread: MatcherThread | undefined;

/** Whether the next run goes to the matcher thread (it listens); tests wait for it. */
export function matcherThreadListens(): boolean {
  return matcherThread().usable;
}

/** The matcher thread, started on first use and again after one was stopped. */
function matcherThread(): MatcherThread {
  if (!sharedThread || sharedThread.stopped) sharedThread = new MatcherThread();
  return sharedThread;
}

/**
 * Runs matchers on a response body with a time limit, so a pattern with catastrophic
 * backtracking on a hostile body is stopped (limit `matcherMs`) instead of blocking the PBX's
 * event loop: on the matcher thread (`MatcherThread`), or in a separate V8 context with a timed
 * `runInContext` while no thread listens. One runner serves one body.
 */
export class MatcherRunner {
  private readonly context = matcherContext();
  private readonly thread = matcherThread();

  constructor(
    private readonly body: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * The first match (RESOLVER-EVAL-FIRST-MATCH); with `countUpTo` > 1 also how many there are.
   * While the matcher thread runs it, this thread serves other work.
   */
  async run(source: string, flags: string, countUpTo = 1): Promise<MatcherRun> {
    if (this.thread.usable) {
      const reply = await this.thread.run(
        { body: this.body, source, flags, countLimit: countUpTo },
        Math.max(1, this.timeoutMs),
      );
      if (reply === 'timeout') return this.timedOut();
      if (reply !== undefined) {
        if (!reply.ok) return this.syntax(reply.message);
        return { ok: true, match: reply.result, count: reply.matches };
      }
    }
    return this.runInContext(source, flags, countUpTo);
  }

  private runInContext(source: string, flags: string, countUpTo: number): MatcherRun {
    Object.assign(this.context, {
      body: this.body,
      source,
      flags,
      countLimit: countUpTo,
      result: null,
      matches: 0,
    });
    try {
      SCRIPT.runInContext(this.context, { timeout: Math.max(1, this.timeoutMs) });
    } catch (error) {
      const err = error as Error & { code?: string };
      if (err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return this.timedOut();
      return this.syntax(err.message);
    }
    const result = this.context['result'] as MatchData | null;
    const count = this.context['matches'] as number;
    // Let go of the body and the match so the shared context does not keep them alive.
    Object.assign(this.context, { body: '', result: null });
    return {
      ok: true,
      match: result ? { groups: [...result.groups], index: result.index } : null,
      count,
    };
  }

  private timedOut(): MatcherRun {
    return {
      ok: false,
      reason: 'timeout',
      message: `the matcher ran longer than ${this.timeoutMs} ms and was stopped`,
    };
  }

  private syntax(message: string): MatcherRun {
    return { ok: false, reason: 'syntax', message: `JavaScript cannot compile the matcher: ${message}` };
  }
}
