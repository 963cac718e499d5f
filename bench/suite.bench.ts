import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/core/project-paths.ts';
import { REAL_WAITS_ENV } from '../steps/support/embedded-target.ts';

/**
 * Issue 11 §5: scenarios per second of the whole embedded suite (`verify` without a target, as
 * `npm run test:features` runs it), in a child process per configuration: serial and with
 * Cucumber's parallel workers. The baseline of the same run is the serial suite with real-time
 * waits (`PBX_CONFORMANCE_REAL_WAITS=1`: the harness sleeps through raw-mode graces and answer
 * delays as against a remote PBX); each figure is also given as a ratio to it.
 * `BENCH_SUITE_PARALLEL` lists the worker counts (default `0,2`; `0` = serial);
 * `BENCH_SUITE_TAGS` narrows the selection for a quick look. Every run must pass: a figure from a
 * failing run would not be a figure of the suite. Prints figures; asserts nothing else. It takes
 * minutes and both cores; run it alone (`npm run bench -- suite`).
 */
export async function benchSuite(): Promise<void> {
  console.log('\n## Embedded conformance suite (scenarios per second)');
  const counts = (process.env['BENCH_SUITE_PARALLEL'] ?? '0,2').split(',').map(Number);
  const tags = process.env['BENCH_SUITE_TAGS'];
  const runs = [
    { parallel: 0, realWaits: true },
    ...counts.map((parallel) => ({ parallel, realWaits: false })),
  ];
  let baseline: number | undefined;
  for (const { parallel, realWaits } of runs) {
    const dir = await mkdtemp(join(tmpdir(), 'suite-bench-'));
    try {
      const args = ['--import', 'tsx', 'src/cli/main.ts', 'verify', '--quiet', '--reports', dir];
      if (parallel > 0) args.push('--parallel', String(parallel));
      if (tags) args.push('--tags', tags);
      const started = process.hrtime.bigint();
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, args, {
          cwd: PROJECT_ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { ...process.env, [REAL_WAITS_ENV]: realWaits ? '1' : '0' },
        });
        child.on('exit', resolve);
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const report = JSON.parse(await readFile(join(dir, 'compatibility.json'), 'utf8')) as {
        scenarios: { total: number; passed: number; skipped: number };
      };
      const { total } = report.scenarios;
      const rate = total / seconds;
      baseline ??= rate;
      const label = `${parallel > 0 ? `--parallel ${parallel}` : 'serial'}${realWaits ? ', real-time waits' : ''}`;
      console.log(
        `${label.padEnd(26)} ${String(total).padStart(4)} scenarios in ${seconds.toFixed(1).padStart(6)} s = ` +
          `${rate.toFixed(1).padStart(5)} scenarios/s, ${(rate / baseline).toFixed(2)}× the baseline ` +
          `(exit ${code}${code === 0 ? '' : ': NOT A VALID FIGURE'})`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
