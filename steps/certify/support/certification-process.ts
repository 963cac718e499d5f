import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FixtureError } from '../../support/fixture-error.ts';
import type { CertificationDone, CertificationSpec } from './certification-spec.ts';

/** The variable, and its value, the certification process knows itself by (certification-worker.ts). */
export const CERTIFICATION_ROLE = 'PBX_CONFORMANCE_CERTIFICATION_ROLE';
export const CERTIFICATION_PROCESS = 'certifications';

/** A certification asked of the certification process. */
export interface ThreadRequest {
  id: number;
  spec: CertificationSpec;
}

/** The certification process's answer: the certification, or what went wrong (a fixture the harness could not set up, or another error). */
export type ThreadAnswer =
  | { id: number; done: CertificationDone }
  | { id: number; error: { fixture: boolean; message: string; stack: string } };

/**
 * Issue 31 §1: the features' certifications are made in a process of their own
 * (certification-worker.ts), not on the main thread where the scenarios run: the scenario PBXs
 * that serve the plug-ins, the spawning of the plug-in runs and the judging would otherwise take
 * the main thread's time while the other features run. A process rather than a worker thread:
 * each plug-in run is a fork, and a fork copies the page tables of the whole forking process
 * (11 ms from 45 MB, 43 ms from 674 MB here) and holds its memory map while it does, which the
 * features' GC would wait for. The process gets the harness's environment as it is when the first
 * certification starts (the scenario's own variables come with each spec); it starts at the first
 * certification, ends at {@link CertificationProcess.close} or with this process, and never keeps
 * this process alive by itself.
 */
export class CertificationProcess {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (done: CertificationDone) => void; reject: (error: Error) => void }
  >();

  /** The certification of `spec`, made in the certification process. */
  certify(spec: CertificationSpec): Promise<CertificationDone> {
    const child = this.started();
    const id = this.nextId++;
    return new Promise<CertificationDone>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      hold(child, true);
      child.send({ id, spec } satisfies ThreadRequest, (error) => {
        if (!error) return;
        this.pending.delete(id);
        reject(new Error(`the certification process cannot be reached: ${error.message}`));
      });
    });
  }

  /** Ends the certification process (the certifications asked of it must have settled). */
  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    hold(child, true);
    child.kill('SIGTERM');
    await exited;
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const child = startChild();
    child.on('message', (answer: ThreadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) hold(child, false);
      if ('done' in answer) waiting.resolve(answer.done);
      else waiting.reject(errorOf(answer.error));
    });
    const fail = (why: string) => {
      if (this.child === child) this.child = null;
      const error = new Error(`the certification process ${why}`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    child.on('error', (error) => fail(`failed: ${error.message}`));
    child.on('exit', (code, signal) => fail(`ended (${signal ?? `exit code ${code}`})`));
    hold(child, false);
    this.child = child;
    return child;
  }
}

/** Whether the certification process (and its channel) keeps this process alive: only while a certification is asked of it. */
function hold(child: ChildProcess, held: boolean): void {
  if (held) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/** The error a certification threw in the certification process, as the steps expect it. */
function errorOf(error: { fixture: boolean; message: string; stack: string }): Error {
  const made = error.fixture ? new FixtureError(error.message) : new Error(error.message);
  if (error.stack) made.stack = error.stack;
  return made;
}

/**
 * Starts certification-worker.ts in a process of its own: as it is when it runs compiled (the
 * installed package), else through tsx. Messages keep Sets, Maps and Dates (`advanced`).
 */
function startChild(): ChildProcess {
  const compiled = import.meta.url.endsWith('.js');
  const entry = fileURLToPath(new URL(`./certification-worker.${compiled ? 'js' : 'ts'}`, import.meta.url));
  return fork(entry, [], {
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, [CERTIFICATION_ROLE]: CERTIFICATION_PROCESS },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
