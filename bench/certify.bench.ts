import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/load-catalog.ts';
import { certifyPlugin, RunSlots, type StageTimes } from '../src/certify/certify.ts';
import { loadExpectations } from '../src/certify/expectations.ts';
import { isolatedRun } from '../src/certify/isolated-env.ts';
import { PLUGIN_RUNS_AT_ONCE } from '../src/certify/run-slots.ts';
import { probeSandbox } from '../src/certify/sandbox.ts';
import { scenarioCatalog } from '../src/certify/scenario-catalog.ts';
import { PROJECT_ROOT } from '../src/core/project-paths.ts';
import { fmt } from './load.ts';

/** Issue 31 §2: the budget of one certification of the example backup plug-in, wall time. */
const BUDGET_S = 10;
const GENERATED = 8;
const PLUGIN = join(PROJECT_ROOT, 'examples', 'plugins', 'check_pbx_backups.py');
const EXPECTATIONS = join(PROJECT_ROOT, 'examples', 'plugins', 'check_pbx_backups.yaml');
const ARGV = ['python3', PLUGIN, '-H', '{host}', '-p', '{port}', '-t', '{timeout}'];

/**
 * Issue 31 §2: `certify-plugin` on the example backup plug-in with the whole catalog, its
 * expectations and 8 generated states, sealed where the machine can seal (as a user runs it): the
 * CLI's wall time from a cold start (a child process), then the same certification in process
 * with the time of each stage summed over the runs (PBX start, plug-in run, judging; the runs
 * overlap, so the sums may exceed the wall time), beside the floor: as many bare `python3 -c pass`
 * runs, sealed the same way and as many at once. Prints met/MISSED against the budget; asserts
 * nothing.
 */
export async function benchCertify(): Promise<void> {
  console.log('\n## certify-plugin on the example backup plug-in (issue 31 §2)');
  const dir = await mkdtemp(join(tmpdir(), 'pbx-bench-certify-'));
  try {
    const cliStarted = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          import.meta.resolve('tsx'),
          join(PROJECT_ROOT, 'src', 'cli', 'main.ts'),
          'certify-plugin',
          '--quiet',
          '--expectations',
          EXPECTATIONS,
          '--runs',
          String(GENERATED),
          '--reports',
          join(dir, 'cli'),
          '--',
          ...ARGV,
        ],
        { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
      );
      child.on('exit', resolve);
    });
    const cliS = (performance.now() - cliStarted) / 1000;

    const sandbox = await probeSandbox(process.env);
    const catalog = await loadCatalog();
    const stages: StageTimes = { pbxStartMs: 0, pluginRunMs: 0, judgingMs: 0 };
    const started = performance.now();
    const result = await certifyPlugin({
      argv: ARGV,
      expectations: await loadExpectations(EXPECTATIONS),
      scenarios: scenarioCatalog(),
      runs: GENERATED,
      seed: 19,
      timeoutMs: 20_000,
      cwd: dir,
      env: process.env,
      levels: new Map(catalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
      reportsDir: join(dir, 'in-process'),
      replayCommand: (file) => file,
      sandbox,
      slots: new RunSlots(PLUGIN_RUNS_AT_ONCE),
      stages,
    });
    const inProcessS = (performance.now() - started) / 1000;
    const runs = result.runs.length;

    const slots = new RunSlots(PLUGIN_RUNS_AT_ONCE);
    const floorStarted = performance.now();
    await Promise.all(
      result.runs.map(() =>
        slots.run(() =>
          isolatedRun({
            argv: ['python3', '-c', 'pass'],
            cwd: dir,
            env: process.env,
            timeoutMs: 10_000,
            sandbox,
          }),
        ),
      ),
    );
    const floorS = (performance.now() - floorStarted) / 1000;

    const sealed = sandbox.report.sealed
      ? `sealed (${sandbox.report.tool})`
      : `NOT sealed: ${sandbox.report.reason}`;
    console.log(`${runs} runs, ${PLUGIN_RUNS_AT_ONCE} at a time, ${sealed}`);
    console.log(
      `certify-plugin CLI, cold:   ${fmt(cliS, 1).padStart(5)} s (exit ${code}${code === 0 ? '' : ': NOT A VALID FIGURE'}); ` +
        `budget ${BUDGET_S} s: ${cliS <= BUDGET_S && code === 0 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `in process:                ${fmt(inProcessS, 1).padStart(5)} s; floor (${runs} bare python3 -c pass, same sealing): ` +
        `${fmt(floorS, 1)} s = ${fmt(inProcessS / floorS, 1)}× the floor`,
    );
    console.log(
      `stages, summed over the runs: PBX start ${fmt(stages.pbxStartMs / 1000, 2)} s, plug-in run ` +
        `${fmt(stages.pluginRunMs / 1000, 2)} s, judging ${fmt(stages.judgingMs / 1000, 2)} s ` +
        '(the slow-answer run waits 7 s and the held-back answer 3 s on purpose, beside the others)',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
