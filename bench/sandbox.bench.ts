import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedRun } from '../src/certify/isolated-env.ts';
import { BWRAP_VARIABLE, probeSandbox, type Sandbox } from '../src/certify/sandbox.ts';
import { fmt } from './load.ts';

const RUNS = Number(process.env['BENCH_SANDBOX_RUNS'] ?? 30);

/**
 * Issue 28 §4 / issue 31: what sealing costs per plug-in run. The same plug-ins (a shell one and a
 * Python one) run sealed in bubblewrap and unsealed (fresh host folders), alternated, `RUNS` times
 * each; prints the median and the slowest run of each, the difference of the medians (the
 * sandbox's cost per run), and the probe each certification makes once. Asserts nothing.
 */
export async function benchSandbox(): Promise<void> {
  console.log('\n## Sealed plug-in runs (issue 28 §4): bubblewrap against fresh host folders');
  const probeStarted = performance.now();
  const sealed = await probeSandbox(process.env);
  const probeMs = performance.now() - probeStarted;
  if (!sealed.report.sealed) {
    console.log(`not sealed on this machine, no figures: ${sealed.report.reason}`);
    return;
  }
  const unsealed = await probeSandbox({ ...process.env, [BWRAP_VARIABLE]: 'none' });
  console.log(`probe (once per certification): ${fmt(probeMs, 1)} ms; ${sealed.report.tool}`);
  const dir = await mkdtemp(join(tmpdir(), 'pbx-bench-sandbox-'));
  try {
    const plugins = {
      'sh plug-in': await script(dir, 'check.sh', '#!/bin/sh\necho "PBX OK - fine | a=1"\n'),
      'python3 plug-in': await script(
        dir,
        'check.py',
        '#!/usr/bin/env python3\nimport socket, json\nprint("PBX OK - fine | a=1")\n',
      ),
    };
    console.log('plug-in          variant    median ms   max ms');
    for (const [name, path] of Object.entries(plugins)) {
      const times = { sealed: [] as number[], unsealed: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        times.sealed.push(await timed(path, dir, sealed));
        times.unsealed.push(await timed(path, dir, unsealed));
      }
      for (const [variant, list] of Object.entries(times))
        console.log(
          `${name.padEnd(16)} ${variant.padEnd(10)} ${fmt(median(list), 1).padStart(9)} ${fmt(Math.max(...list), 1).padStart(8)}`,
        );
      console.log(
        `${name.padEnd(16)} cost of the sandbox per run: ${fmt(median(times.sealed) - median(times.unsealed), 1)} ms (median against median)`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, body);
  await chmod(path, 0o755);
  return path;
}

async function timed(path: string, cwd: string, sandbox: Sandbox): Promise<number> {
  const started = performance.now();
  const { run } = await isolatedRun({ argv: [path], cwd, env: process.env, timeoutMs: 10_000, sandbox });
  if (run.exitCode !== 0) throw new Error(`the bench plug-in failed: ${run.stderr}`);
  return performance.now() - started;
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
