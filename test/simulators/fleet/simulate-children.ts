import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { TestContext } from 'node:test';
import { type PickedPool, poolOptions, randomPool } from './random-pool.ts';

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

  /**
   * Starts the controller alone (`--fleet-only --pbx-count N`); resolves with its banner and the
   * REST base and ingest address the banner names.
   */
  async startController(
    pbxCount: number,
  ): Promise<{ child: ChildProcess; banner: string; api: string; ingest: string }> {
    const controller = await this.start(['--fleet-only', '--pbx-count', String(pbxCount)]);
    const api = /REST:\s+(\S+)\/api\/v1/.exec(controller.banner)?.[1];
    const ingest = /PBX ingest:\s+(tcp:\S+)/.exec(controller.banner)?.[1];
    assert.ok(api && ingest, controller.banner);
    return { ...controller, api, ingest };
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

/**
 * A sharded fleet's set-up: a loopback block free on its first `pbxCount` addresses, `simulate`
 * children with the fleet secret (all stopped after the test) and the controller alone, started.
 * `undefined` where no such block can be bound (the caller skips).
 */
export async function shardedFleet(
  t: TestContext,
  pbxCount: number,
  secret: string,
): Promise<
  | {
      picked: PickedPool;
      children: SimulateChildren;
      controller: Awaited<ReturnType<SimulateChildren['startController']>>;
      /** The options of shard `index`/`of` of this fleet, linking to its controller. */
      shard(index: number, of: number): string[];
    }
  | undefined
> {
  const picked = await randomPool(pbxCount);
  if (!picked) return undefined;
  const children = new SimulateChildren({ ...process.env, PBX_CONFORMANCE_FLEET_SECRET: secret });
  t.after(() => children.stopAll());
  const controller = await children.startController(pbxCount);
  const shard = (index: number, of: number) => [
    ...['--shard', `${index}/${of}`, '--pbx-count', String(pbxCount), '--controller', controller.ingest],
    ...poolOptions(picked),
  ];
  return { picked, children, controller, shard };
}
