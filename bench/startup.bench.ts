import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/core/project-paths.ts';
import { childEnv, install, pack, runProcess } from '../test/package/packed-install.ts';
import { fmt } from './load.ts';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);

/** One way of starting the CLI: the node arguments before the command's own. */
interface Start {
  name: string;
  args: string[];
  cwd: string;
}

/**
 * Issue 13 §2: start-up of the CLI from the installed package (compiled JavaScript) against the
 * repository's tsx start, in the same run, the variants alternated, `RUNS` times each. Prints the
 * tarball's size, the install time and, per variant, the median and the slowest run of:
 * - `--help`: process start to exit (aim: under 300 ms from the package);
 * - `simulate` ready: process start to the first stdout line of `simulate --json --port 0` (the
 *   target description, printed once every listener is up; default fleet of 3 PBXs).
 * A bare `node -e 0` row shows what Node itself takes on this machine. Asserts nothing.
 */
export async function benchStartup(): Promise<void> {
  console.log('\n## Start-up (issue 13): installed package vs the repository through tsx');
  const base = await mkdtemp(join(tmpdir(), 'pbx-conformance-startup-'));
  try {
    const buildStarted = performance.now();
    const packed = await pack(join(base, 'pack'));
    const packMs = performance.now() - buildStarted;
    const installed = await install(packed.tarball, join(base, 'user-project'));
    console.log(
      `tarball ${fmt(packed.size / 1024, 0)} KiB (${fmt(packed.unpackedSize / 1024, 0)} KiB unpacked, ${packed.files.length} files); npm pack with the build ${fmt(packMs / 1000, 1)} s`,
    );
    if ('failed' in installed) {
      console.log(`install failed, no package figures: ${installed.failed}`);
      return;
    }
    console.log(
      `npm install of the tarball into an empty project (--prefer-offline): ${fmt(installed.installMs / 1000, 1)} s`,
    );
    const starts: Start[] = [
      { name: 'package', args: [installed.bin], cwd: installed.project },
      { name: 'repo bin', args: [join(PACKAGE_ROOT, 'bin', 'pbx-conformance.js')], cwd: PACKAGE_ROOT },
      {
        name: 'repo tsx',
        args: ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts')],
        cwd: PACKAGE_ROOT,
      },
    ];
    const bare = await timesOf(RUNS, () => timed(['-e', '0'], PACKAGE_ROOT));
    console.log(row('node -e 0', bare));
    const help = new Map(starts.map((s) => [s.name, [] as number[]]));
    const ready = new Map(starts.map((s) => [s.name, [] as number[]]));
    for (let run = 0; run < RUNS; run++) {
      for (const start of starts)
        help.get(start.name)!.push(await timed([...start.args, '--help'], start.cwd));
    }
    for (const start of starts) console.log(row(`--help ${start.name}`, help.get(start.name)!));
    for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 2)); run++) {
      for (const start of starts) ready.get(start.name)!.push(await simulateReady(start));
    }
    for (const start of starts) console.log(row(`simulate ${start.name}`, ready.get(start.name)!));
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

async function timesOf(n: number, once: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  return times;
}

/** Wall time of `node <args>` from spawn to exit, in ms. */
async function timed(args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  const result = await runProcess(process.execPath, args, cwd);
  const ms = performance.now() - started;
  if (result.code !== 0) throw new Error(`node ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return ms;
}

/** Spawn to the first stdout line of `simulate --json --port 0`, in ms; the child is stopped after. */
function simulateReady(start: Start): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child: ChildProcess = spawn(
      process.execPath,
      [...start.args, 'simulate', '--json', '--port', '0'],
      {
        cwd: start.cwd,
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let ms: number | undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (ms === undefined && stdout.includes('\n')) {
        ms = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr!.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (ms === undefined) reject(new Error(`simulate (${start.name}) exited ${code} before it was ready`));
      else resolve(ms);
    });
  });
}

function row(name: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${name.padEnd(20)} median ${fmt(median).padStart(6)} ms, slowest ${fmt(sorted.at(-1)!).padStart(6)} ms (${times.length} runs)`;
}
