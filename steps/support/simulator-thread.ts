import { SHARE_ENV, Worker, type WorkerOptions } from 'node:worker_threads';
import type { FleetStartOptions, FleetUrls } from '../../simulators/fleet-controller/index.ts';
import type { PbxStartOptions, PbxUrls } from '../../simulators/pbx/index.ts';

/** The `workerData` the simulator thread knows itself by (simulator-thread-worker.ts). */
export const SIMULATOR_THREAD = 'pbx-conformance-simulator-thread';

/**
 * What the harness may ask of a PBX on the simulator thread: `start` options that cross a thread
 * (plain data), with `durationClock: true` for a duration clock made on that thread, which the
 * harness then advances through {@link ThreadPbx.advance}, and `monitoringPort: 'below-ephemeral'`
 * for a data endpoint on a free port below the ephemeral range (port-holder.ts,
 * `freePortBelowEphemeral`), chosen again if another program takes it before the PBX listens.
 */
export type ThreadPbxOptions = Omit<
  PbxStartOptions,
  'durationClock' | 'wrapWebRoute' | 'controlMounts' | 'monitoringPort' | 'scenario' | 'replay'
> & {
  durationClock?: boolean;
  monitoringPort?: number | 'below-ephemeral';
};

/** The fleet controller's `start` options that cross a thread (simulators/fleet-controller). */
export type ThreadControllerOptions = Pick<FleetStartOptions, 'clock' | 'scryptCost'>;

/** The requests of the simulator thread's protocol. */
export type SimulatorRequest =
  | { id: number; op: 'start-pbx'; options: ThreadPbxOptions; spare?: boolean }
  | { id: number; op: 'start-controller'; options: ThreadControllerOptions; spare?: boolean }
  | { id: number; op: 'advance'; handle: number; ms: number }
  | { id: number; op: 'close'; handle: number }
  | { id: number; op: 'close-all' };

/** Its answers: the request's result, or the message and stack of what it threw. */
export type SimulatorAnswer =
  | { id: number; value: unknown }
  | { id: number; error: { message: string; stack: string } };

/** A PBX started on the simulator thread, as the harness holds it. */
export interface ThreadPbx {
  urls: PbxUrls;
  /** Advances its duration clock (when started with one) and fires what falls due there; resolves after. */
  advance(ms: number): Promise<void>;
  /** Has it closed on the thread; resolves at once ({@link SimulatorThread.close} waits for it). */
  close(): Promise<void>;
}

/** A fleet controller started on the simulator thread. */
export interface ThreadController {
  urls: FleetUrls;
  /** Has it closed on the thread; resolves at once ({@link SimulatorThread.close} waits for it). */
  close(): Promise<void>;
}

/**
 * How a simulator is started: `spare` takes one started ahead for the same options and starts the
 * next ahead (fresh each time: a simulator is handed out once).
 */
export interface StartHow {
  spare?: boolean;
}

/**
 * Issue 31 §1: the embedded simulator (each scenario's PBX, and the fleet scenarios' controller
 * and PBXs) runs on a worker thread of its own, so that the simulator's side of every exchange
 * (its HTTP servers, control plane, rendering, its garbage) leaves the harness's main thread,
 * where Cucumber, the steps and their clients run, and the two use both cores. The harness
 * reaches a simulator only as it reaches a remote one: through its URLs and its HTTP control
 * plane. The one thing it held by reference, the duration clock it advances while a silent client
 * waits or a reference endpoint delays its answer, is advanced by message instead
 * ({@link ThreadPbx.advance}), and the PBX's timers fire on its own thread before the call resolves.
 *
 * The start of a scenario's simulator and its close leave the harness's way too: a PBX or
 * controller asked for with `spare` was started on the thread while the scenario before ran
 * (simulator-thread-worker.ts), and a close is handed to the thread without waiting for it.
 *
 * One thread per process (a parallel worker has its own), started at the first request. It never
 * keeps the process alive by itself while nothing is asked of it; {@link SimulatorThread.close}
 * waits for every close, closes what is left and ends it (hooks.ts, after the last scenario).
 */
export class SimulatorThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  /** Closes handed to the thread and not yet done. */
  private readonly closing = new Set<Promise<unknown>>();
  /** The first close that failed, reported by {@link close}. */
  private closeError: Error | undefined;

  /** Starts a PBX on the thread. */
  async startPbx(options: ThreadPbxOptions, how: StartHow = {}): Promise<ThreadPbx> {
    const { handle, urls } = (await this.ask({ op: 'start-pbx', options, ...how })) as {
      handle: number;
      urls: PbxUrls;
    };
    return {
      urls,
      advance: async (ms) => {
        await this.ask({ op: 'advance', handle, ms });
      },
      close: async () => this.closeLater(handle),
    };
  }

  /** Starts a fleet controller on the thread. */
  async startController(options: ThreadControllerOptions, how: StartHow = {}): Promise<ThreadController> {
    const { handle, urls } = (await this.ask({ op: 'start-controller', options, ...how })) as {
      handle: number;
      urls: FleetUrls;
    };
    return { urls, close: async () => this.closeLater(handle) };
  }

  /** Whether the thread is running. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Starts the thread ahead of its first request, so that its start overlaps other work. */
  warm(): void {
    this.started();
  }

  /**
   * Waits for every close handed to the thread, closes what is still open there (the spares),
   * and ends the thread. Rejects with the first close that failed.
   */
  async close(): Promise<void> {
    await Promise.allSettled(this.closing);
    const worker = this.worker;
    try {
      if (worker) await this.ask({ op: 'close-all' });
    } finally {
      this.worker = null;
      if (worker) await worker.terminate();
    }
    const failed = this.closeError;
    this.closeError = undefined;
    if (failed) throw failed;
  }

  private closeLater(handle: number): void {
    const closed: Promise<unknown> = this.ask({ op: 'close', handle }).then(
      (): void => {
        this.closing.delete(closed);
      },
      (error: Error): void => {
        this.closing.delete(closed);
        this.closeError ??= new Error(`a simulator did not close: ${error.message}`, { cause: error });
      },
    );
    this.closing.add(closed);
  }

  private ask(request: DistributiveOmit<SimulatorRequest, 'id'>): Promise<unknown> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id } as SimulatorRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (answer: SimulatorAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('value' in answer) waiting.resolve(answer.value);
      else {
        const error = new Error(answer.error.message);
        if (answer.error.stack) error.stack = answer.error.stack;
        waiting.reject(error);
      }
    });
    const fail = (why: string) => {
      if (this.worker === worker) this.worker = null;
      const error = new Error(`the simulator thread ${why}`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(`failed: ${error.message}`));
    worker.on('exit', (code) => fail(`ended (exit code ${code})`));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The simulator thread of this process. */
export const simulatorThread = new SimulatorThread();

/**
 * Starts simulator-thread-worker.ts: as it is when it runs compiled (the installed package), else
 * through tsx's API (Node 20 does not carry the main thread's `--import tsx` into a worker).
 */
function startWorker(): Worker {
  const compiled = import.meta.url.endsWith('.js');
  const entry = new URL(`./simulator-thread-worker.${compiled ? 'js' : 'ts'}`, import.meta.url);
  const options: WorkerOptions = { env: SHARE_ENV, workerData: SIMULATOR_THREAD };
  if (compiled) return new Worker(entry, options);
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
