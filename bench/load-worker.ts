import { isMainThread, parentPort, type Worker, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { type IngestTarget, runIngestLoad } from './ingest-load.ts';
import { exchange, type LoadResult, runLoad } from './load.ts';
import { threadCpuMs } from './thread-cpu.ts';
import { startTsWorker } from './ts-worker.ts';

/**
 * What one request of a load run is:
 * - `http`: an undici request over a pool of `concurrency` kept-alive connections (pipelining 1);
 *   an answer with another status than `expectStatus` (default 200) counts as an error;
 * - `tcp`: a fresh TCP connection per request, `request` written (or nothing, `null`), read to EOF;
 * - `http-revalidate`: GETs like `http`, each with `If-None-Match` of the latest ETag the worker has
 *   had in a 200 answer (none before the first): 200 and 304 both count, and the result says how
 *   many were 200 (`modified`) and how many distinct ETags they carried (`versions`), for a
 *   resource that changes during the run;
 * - `ingest`: simulated PBXs on the fleet controller's ingest link, `concurrency` connections each
 *   keeping `window` events unacknowledged; a request is one acknowledged event (`ingest-load.ts`).
 */
export type LoadTarget =
  | {
      kind: 'http';
      url: string;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      expectStatus?: number;
    }
  | { kind: 'tcp'; host: string; port: number; request: string | null }
  | { kind: 'http-revalidate'; url: string; headers?: Record<string, string> }
  | IngestTarget;

export interface LoadSpec {
  target: LoadTarget;
  concurrency: number;
  durationMs: number;
  /** Load run before the measurement, on the same connection pool; not counted. */
  warmupMs: number;
}

export interface WorkerLoadResult extends LoadResult {
  /** The first failure's message, so a run with errors says why. */
  firstError?: string;
  /**
   * CPU ms during the counted run (not the warm-up) of the thread that called `run` — where the
   * servers of a bench live — and of the load worker; `null` where threads' times cannot be read.
   * Per request they show which side bounds the rate: a client thread near 1 s of CPU per second
   * is saturated, and the ceiling it measures is the client's.
   */
  serverCpuMs: number | null;
  clientCpuMs: number | null;
  /** `http-revalidate` only: answers that were 200, and the distinct ETags among them. */
  modified?: number;
  versions?: number;
}

/** The measured side and its ceiling, each over the same total time, and their ratio. */
export interface Comparison {
  sut: WorkerLoadResult;
  ceiling: WorkerLoadResult;
  ratio: number;
}

const ROLE = 'bench-load-worker';

type Request = { id: number; spec: LoadSpec };
type Reply =
  | { id: number; measuring: true }
  | { id: number; result: WorkerLoadResult }
  | { id: number; error: string };

/**
 * A load generator on its own thread, so the client's work runs on another core than the server
 * under test (the bench machines have two): its cost is no longer charged to the server's event
 * loop, nor to the ceiling's. One run at a time; `compare` alternates the system under test and
 * its ceiling with the same settings.
 *
 * Other benches (e.g. bench/fleet.bench.ts) use it as:
 * `const load = await LoadWorker.start(); const r = await load.run({ target: { kind: 'http', url,
 * headers }, concurrency: 32, durationMs, warmupMs: 200 }); await load.close();`
 */
export class LoadWorker {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve(r: WorkerLoadResult): void; reject(e: Error): void; cpuAtStart: number | null }
  >();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      if ('measuring' in reply) {
        waiter.cpuAtStart = threadCpuMs();
        return;
      }
      this.pending.delete(reply.id);
      if ('error' in reply) return waiter.reject(new Error(reply.error));
      const now = threadCpuMs();
      const serverCpuMs = now === null || waiter.cpuAtStart === null ? null : now - waiter.cpuAtStart;
      waiter.resolve({ ...reply.result, serverCpuMs });
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => this.failAll(new Error(`load worker exited with code ${code}`)));
  }

  static async start(): Promise<LoadWorker> {
    const worker = startTsWorker(new URL(import.meta.url), { role: ROLE });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return new LoadWorker(worker);
  }

  run(spec: LoadSpec): Promise<WorkerLoadResult> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, cpuAtStart: null });
      this.worker.postMessage({ id, spec } satisfies Request);
    });
  }

  /**
   * Measures `sut` and `ceiling` in `rounds` pairs of slices of `durationMs / rounds` each, the
   * order turned round every pair (S C, C S, S C, …), each slice after its own warm-up, and sums
   * them: a drift in the machine's load during the run then falls on both sides alike, and
   * neither side is always the one measured first (with S C S C a load that rose through each
   * pair was charged to the ceiling every time).
   */
  async compare(
    sut: LoadTarget,
    ceiling: LoadTarget,
    settings: {
      concurrency: number;
      durationMs: number;
      warmupMs: number;
      rounds?: number;
      /** Called after every slice, e.g. to let a server finish background work before the next. */
      settle?: () => Promise<void>;
    },
  ): Promise<Comparison> {
    const rounds = Math.max(1, settings.rounds ?? 2);
    const { concurrency, warmupMs, settle } = settings;
    const durationMs = settings.durationMs / rounds;
    const sides: WorkerLoadResult[][] = [[], []];
    for (const side of sliceOrder(rounds)) {
      const target = side === 0 ? sut : ceiling;
      sides[side]!.push(await this.run({ target, concurrency, durationMs, warmupMs }));
      await settle?.();
    }
    const [s, c] = sides.map(sum) as [WorkerLoadResult, WorkerLoadResult];
    return { sut: s, ceiling: c, ratio: s.perSecond / c.perSecond };
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

/**
 * The order of `compare`'s slices, 0 the system under test and 1 the ceiling: `rounds` pairs,
 * turned round every pair (0 1 1 0 0 1 …), so each side goes first in half the pairs.
 */
export function sliceOrder(rounds: number): (0 | 1)[] {
  return Array.from(
    { length: rounds },
    (_, round) => (round % 2 === 0 ? [0, 1] : [1, 0]) as (0 | 1)[],
  ).flat();
}

function sum(results: WorkerLoadResult[]): WorkerLoadResult {
  const total = (pick: (r: WorkerLoadResult) => number | null): number | null =>
    results.reduce<number | null>((n, r) => (n === null || pick(r) === null ? null : n + pick(r)!), 0);
  const requests = total((r) => r.requests)!;
  const seconds = total((r) => r.seconds)!;
  const firstError = results.find((r) => r.firstError !== undefined)?.firstError;
  const optional = (pick: (r: WorkerLoadResult) => number | undefined) =>
    results.some((r) => pick(r) !== undefined) ? results.reduce((n, r) => n + (pick(r) ?? 0), 0) : undefined;
  const modified = optional((r) => r.modified);
  // Summed over slices: an ETag seen in two slices counts twice (the revalidating kind is for `run`).
  const versions = optional((r) => r.versions);
  return {
    requests,
    seconds,
    perSecond: requests / seconds,
    errors: total((r) => r.errors)!,
    serverCpuMs: total((r) => r.serverCpuMs),
    clientCpuMs: total((r) => r.clientCpuMs),
    ...(firstError ? { firstError } : {}),
    ...(modified === undefined ? {} : { modified }),
    ...(versions === undefined ? {} : { versions }),
  };
}

/** Below this much CPU time the 10 ms ticks of `threadCpuMs` make a per-request figure meaningless. */
const MIN_CPU_MS = 100;

/** CPU µs per request of a side (`server` or `client`), or `null` where unknown or too coarse. */
export function cpuPerRequestUs(result: WorkerLoadResult, side: 'server' | 'client'): number | null {
  const ms = side === 'server' ? result.serverCpuMs : result.clientCpuMs;
  return ms === null || ms < MIN_CPU_MS || result.requests === 0 ? null : (ms * 1000) / result.requests;
}

type Measured = Omit<WorkerLoadResult, 'serverCpuMs'>;

/**
 * Runs one spec inside the worker: warm-up, then the counted run, on one connection pool;
 * `measuring` is called as the counted run begins.
 */
async function runSpec(spec: LoadSpec, measuring: () => void): Promise<Measured> {
  let firstError: string | undefined;
  const noted =
    (task: () => Promise<unknown>): (() => Promise<unknown>) =>
    () =>
      task().catch((error: unknown) => {
        firstError ??= error instanceof Error ? error.message : String(error);
        throw error;
      });
  const counted = async (task: () => Promise<unknown>): Promise<Measured> => {
    firstError = undefined;
    measuring();
    const cpuAtStart = threadCpuMs();
    const result = await runLoad(task, spec.concurrency, spec.durationMs);
    const cpuAtEnd = threadCpuMs();
    const clientCpuMs = cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart;
    return { ...result, clientCpuMs, ...(firstError === undefined ? {} : { firstError }) };
  };
  const { target } = spec;
  if (target.kind === 'tcp') {
    const task = noted(() => exchange(target.host, target.port, target.request));
    if (spec.warmupMs > 0) await runLoad(task, spec.concurrency, spec.warmupMs);
    return counted(task);
  }
  if (target.kind === 'ingest') {
    return runIngestLoad(target, spec.concurrency, spec.warmupMs, spec.durationMs, measuring);
  }
  if (target.kind === 'http-revalidate') return revalidate(target, spec, noted, counted);
  const dispatcher = new Agent({ connections: spec.concurrency, pipelining: 1 });
  const expected = target.expectStatus ?? 200;
  const options = {
    dispatcher,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    ...(target.body === undefined ? {} : { body: target.body }),
  };
  const task = noted(async () => {
    const res = await request(target.url, options);
    await res.body.dump();
    if (res.statusCode !== expected) throw new Error(`status ${res.statusCode}`);
  });
  try {
    if (spec.warmupMs > 0) await runLoad(task, spec.concurrency, spec.warmupMs);
    return await counted(task);
  } finally {
    await dispatcher.close();
  }
}

/** The `http-revalidate` kind: conditional GETs with the latest ETag seen, 200 and 304 both fine. */
async function revalidate(
  target: Extract<LoadTarget, { kind: 'http-revalidate' }>,
  spec: LoadSpec,
  noted: (task: () => Promise<unknown>) => () => Promise<unknown>,
  counted: (task: () => Promise<unknown>) => Promise<Measured>,
): Promise<Measured> {
  const dispatcher = new Agent({ connections: spec.concurrency, pipelining: 1 });
  let latest: string | undefined;
  let modified = 0;
  const versions = new Set<string>();
  const task = noted(async () => {
    const headers = { ...target.headers, ...(latest === undefined ? {} : { 'if-none-match': latest }) };
    const res = await request(target.url, { dispatcher, headers });
    await res.body.dump();
    if (res.statusCode === 304) return;
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    const etag = res.headers['etag'];
    if (typeof etag !== 'string') throw new Error('200 without an ETag');
    modified++;
    versions.add(etag);
    latest = etag;
  });
  try {
    if (spec.warmupMs > 0) await runLoad(task, spec.concurrency, spec.warmupMs);
    modified = 0;
    versions.clear();
    const measured = await counted(task);
    return { ...measured, modified, versions: versions.size };
  } finally {
    await dispatcher.close();
  }
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE && parentPort) {
  const port = parentPort;
  port.on('message', ({ id, spec }: Request) => {
    runSpec(spec, () => port.postMessage({ id, measuring: true } satisfies Reply)).then(
      (measured) => port.postMessage({ id, result: { ...measured, serverCpuMs: null } } satisfies Reply),
      (error: unknown) =>
        port.postMessage({
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies Reply),
    );
  });
  port.postMessage('ready');
}
