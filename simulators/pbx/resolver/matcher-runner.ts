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
 * The matcher thread: it runs one match per message on its port and answers on the same port.
 * `state[0]` says where the current run is (0 sent, 1 started, 2 done), `state[1]` that the thread
 * listens. Plain JavaScript, so the thread needs no loader.
 */
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const state = new Int32Array(workerData.state);
const port = workerData.port;
port.on('message', ({ body, source, flags, countLimit }) => {
  Atomics.store(state, 0, 1);
  let reply;
  try {
    let result = null;
    let matches = 0;
    ${MATCH}
    reply = { ok: true, result, matches };
  } catch (error) {
    reply = { ok: false, message: String(error && error.message) };
  }
  port.postMessage(reply);
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
});
Atomics.store(state, 1, 1);
`;

/** How long a listening matcher thread may take to pick a run up before the context runs it. */
const PICK_UP_MS = 1000;

type ThreadReply = { ok: true; result: MatchData | null; matches: number } | { ok: false; message: string };

/**
 * One thread that runs matchers while this thread waits for it, up to the matcher limit
 * (`Atomics.wait`), and reads its answer without a turn of the event loop (`receiveMessageOnPort`):
 * the run stays synchronous, as in the V8 context, without the watchdog thread node starts and
 * joins for every timed `runInContext` (issue 31 §3: 23 to 33 % of a lookup's time). A run past
 * the limit terminates the thread, which stops the pattern; the next run starts a new one. Until a
 * thread listens (its start, about 30 ms) and whenever it does not pick a run up within
 * `PICK_UP_MS`, the run goes to the V8 context with its time limit as before. The thread is
 * `unref`'d: it never keeps a process alive.
 */
class MatcherThread {
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private dead = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(THREAD_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { state: this.state.buffer, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.unref();
    this.worker.on('error', () => this.stop());
    this.worker.on('exit', () => {
      this.dead = true;
    });
  }

  get usable(): boolean {
    return !this.dead && Atomics.load(this.state, 1) === 1;
  }

  /** The match, `'timeout'`, or `undefined` when the thread did not take the run (the context must). */
  run(
    input: { body: string; source: string; flags: string; countLimit: number },
    timeoutMs: number,
  ): ThreadReply | 'timeout' | undefined {
    Atomics.store(this.state, 0, 0);
    this.port.postMessage(input);
    if (Atomics.wait(this.state, 0, 0, PICK_UP_MS) === 'timed-out' && Atomics.load(this.state, 0) === 0) {
      this.stop();
      return undefined;
    }
    if (Atomics.wait(this.state, 0, 1, timeoutMs) === 'timed-out' && Atomics.load(this.state, 0) !== 2) {
      this.stop();
      return 'timeout';
    }
    const reply = receiveMessageOnPort(this.port)?.message as ThreadReply | undefined;
    if (reply === undefined) this.stop();
    return reply;
  }

  stop(): void {
    if (this.dead) return;
    this.dead = true;
    void this.worker.terminate();
    this.port.close();
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

  /** The first match (RESOLVER-EVAL-FIRST-MATCH); with `countUpTo` > 1 also how many there are. */
  run(source: string, flags: string, countUpTo = 1): MatcherRun {
    if (this.thread.usable) {
      const reply = this.thread.run(
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
