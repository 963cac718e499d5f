import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * `simulate` children of one test (issue 29 item 16): each is tracked from the moment it is
 * spawned, so a start that fails (an exit before the banner, or no banner in time) rejects at
 * once and `stopAll` still reaches every child, those that started and those still starting.
 */
export class SimulateChildren {
  private readonly children = new Set<ChildProcess>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly readyWithinMs = 60_000,
  ) {}

  /** Starts `simulate ARGS`; resolves with its banner once it says it runs. */
  start(args: string[]): Promise<{ child: ChildProcess; banner: string }> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'simulate', '--clock', 'frozen', ...args],
      { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.children.add(child);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => {
        reject(
          new Error(
            `simulate ${args.join(' ')} did not start within ${this.readyWithinMs} ms: ${err.trim()}`,
          ),
        );
      }, this.readyWithinMs);
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Press Ctrl-C')) {
          clearTimeout(timer);
          resolve({ child, banner: out });
        }
      });
      child.stderr!.on('data', (chunk) => {
        err += chunk;
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`simulate ${args.join(' ')} exited ${code}: ${err.trim()}`));
      });
    });
  }

  /**
   * Runs `simulate ARGS` to its end: its exit code and output, and how long it ran. Rejects when
   * it runs past `withinMs` (and stops it).
   */
  run(
    args: string[],
    withinMs: number,
  ): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'simulate', '--clock', 'frozen', ...args],
      { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`simulate ${args.join(' ')} still ran after ${withinMs} ms: ${stderr.trim()}`));
      }, withinMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      });
    });
  }

  /** Every child spawned and not yet gone. */
  running(): ChildProcess[] {
    return [...this.children].filter((child) => child.exitCode === null && child.signalCode === null);
  }

  /** Stops every child (SIGTERM, SIGKILL after 5 s) and waits for each to exit. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.running().map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}
