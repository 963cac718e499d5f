import { SHARE_ENV, Worker, type WorkerOptions } from 'node:worker_threads';
import { FixtureError } from '../../support/fixture-error.ts';
import type { CertificationDone, CertificationSpec } from './certification-spec.ts';

/** The `workerData` the certification thread knows itself by (certification-worker.ts). */
export const CERTIFICATION_THREAD = 'pbx-conformance certification thread';

/** A certification asked of the thread. */
export interface ThreadRequest {
  id: number;
  spec: CertificationSpec;
}

/** The thread's answer: the certification, or what went wrong (a fixture the harness could not set up, or another error). */
export type ThreadAnswer =
  | { id: number; done: CertificationDone }
  | { id: number; error: { fixture: boolean; message: string; stack: string } };

/**
 * Issue 31 §1: the features' certifications are made on a worker thread of their own
 * (certification-worker.ts), not on the main thread where the scenarios run: the scenario PBXs
 * that serve the plug-ins, the spawning of the plug-in runs and the judging would otherwise take
 * the main thread's time while the other features run. The thread shares the process's
 * environment (`SHARE_ENV`), folders and run-slot rules; it starts at the first certification and
 * ends at {@link CertificationThread.close}. It never keeps the process alive by itself.
 */
export class CertificationThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (done: CertificationDone) => void; reject: (error: Error) => void }
  >();

  /** The certification of `spec`, made on the thread. */
  certify(spec: CertificationSpec): Promise<CertificationDone> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<CertificationDone>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, spec } satisfies ThreadRequest);
    });
  }

  /** Ends the thread (the certifications asked of it must have settled). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (answer: ThreadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('done' in answer) waiting.resolve(answer.done);
      else waiting.reject(errorOf(answer.error));
    });
    const fail = (why: string) => {
      if (this.worker === worker) this.worker = null;
      const error = new Error(`the certification thread ${why}`);
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

/** The error a certification threw on the thread, as the main thread's steps expect it. */
function errorOf(error: { fixture: boolean; message: string; stack: string }): Error {
  const made = error.fixture ? new FixtureError(error.message) : new Error(error.message);
  if (error.stack) made.stack = error.stack;
  return made;
}

/**
 * Starts certification-worker.ts: as it is when it runs compiled (the installed package), else
 * through tsx's API (Node 20 does not carry the main thread's `--import tsx` into a worker).
 */
function startWorker(): Worker {
  const compiled = import.meta.url.endsWith('.js');
  const entry = new URL(`./certification-worker.${compiled ? 'js' : 'ts'}`, import.meta.url);
  const options: WorkerOptions = { env: SHARE_ENV, workerData: CERTIFICATION_THREAD };
  if (compiled) return new Worker(entry, options);
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
