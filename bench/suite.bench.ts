import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/core/project-paths.ts';
import { REAL_WAITS_ENV } from '../steps/support/embedded-target.ts';

/** Issue 31 §1: the serial embedded suite, cold (a fresh process), at least this many scenarios/s. */
const BUDGET_PER_S = 40;
/** Issue 31 §1: the progress line's count moves at least this often (the longest scenario, serially). */
const STANDSTILL_BUDGET_S = 2;

/**
 * Issue 11 §5, issue 31 §1: scenarios per second of the whole embedded suite (`verify` without a
 * target, as `npm run conformance` runs it), in a child process per configuration (cold: the
 * process start counts): serial and with Cucumber's parallel workers. The baseline of the same run
 * is the serial suite with real-time waits (`PBX_CONFORMANCE_REAL_WAITS=1`: the harness sleeps
 * through raw-mode graces and answer delays as against a remote PBX); each figure is also given as
 * a ratio to it. Then, per feature folder, scenarios per second of scenario time in each serial
 * run (the sum of the folder's scenario durations from the report), beside the baseline's; and the
 * longest scenario of the serial run: the longest the progress line's count stood still; and the
 * CPU time of each run's main thread and whole process (suite-cpu-probe.ts), which the machine's
 * load moves far less than the rates. Prints
 * met/MISSED against the budgets (≥ 40 scenarios/s serial, ≤ 2 s standing still).
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
  const folders: { label: string; byFolder: Map<string, { count: number; ms: number }> }[] = [];
  for (const { parallel, realWaits } of runs) {
    const dir = await mkdtemp(join(tmpdir(), 'suite-bench-'));
    try {
      const cpuFile = join(dir, 'cpu.json');
      const probe = new URL('./suite-cpu-probe.ts', import.meta.url).href;
      const args = [
        '--import',
        'tsx',
        '--import',
        probe,
        'src/cli/main.ts',
        'verify',
        '--quiet',
        '--reports',
        dir,
      ];
      if (parallel > 0) args.push('--parallel', String(parallel));
      if (tags) args.push('--tags', tags);
      const started = process.hrtime.bigint();
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, args, {
          cwd: PROJECT_ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { ...process.env, [REAL_WAITS_ENV]: realWaits ? '1' : '0', BENCH_SUITE_CPU_FILE: cpuFile },
        });
        child.on('exit', resolve);
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const report = JSON.parse(await readFile(join(dir, 'compatibility.json'), 'utf8')) as SuiteReport;
      const { total } = report.scenarios;
      const rate = total / seconds;
      baseline ??= rate;
      const label = `${parallel > 0 ? `--parallel ${parallel}` : 'serial'}${realWaits ? ', real-time waits' : ''}`;
      console.log(
        `${label.padEnd(26)} ${String(total).padStart(4)} scenarios in ${seconds.toFixed(1).padStart(6)} s = ` +
          `${rate.toFixed(1).padStart(5)} scenarios/s, ${(rate / baseline).toFixed(2)}× the baseline ` +
          `(exit ${code}${code === 0 ? '' : ': NOT A VALID FIGURE'})` +
          (parallel === 0 && !realWaits
            ? `; budget ≥ ${BUDGET_PER_S}/s: ${rate >= BUDGET_PER_S && code === 0 ? 'met' : 'MISSED'}`
            : ''),
      );
      const cpu = await readCpu(cpuFile);
      if (cpu)
        console.log(
          `${''.padEnd(26)} CPU: main thread ${(cpu.mainThreadMs / 1000).toFixed(1)} s, whole process ` +
            `${(cpu.processMs / 1000).toFixed(1)} s (load ${loadavg()[0]?.toFixed(1)} at the end)`,
        );
      const durations = scenarioDurations(report);
      if (parallel === 0) folders.push({ label, byFolder: perFolder(durations) });
      if (parallel === 0 && !realWaits) {
        const [longest, name] = [...durations].reduce<[number, string]>(
          (most, [key, ms]) => (ms > most[0] ? [ms, key] : most),
          [0, ''],
        );
        console.log(
          `${''.padEnd(26)} longest scenario (the progress count standing still): ${(longest / 1000).toFixed(1)} s, ` +
            `${name.replace('\u0000', ': ')}; budget ≤ ${STANDSTILL_BUDGET_S} s: ${longest <= STANDSTILL_BUDGET_S * 1000 ? 'met' : 'MISSED'}`,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printFolders(folders);
}

/** What suite-cpu-probe.ts wrote at the child's exit; `null` when it wrote nothing (not Linux). */
async function readCpu(file: string): Promise<{ mainThreadMs: number; processMs: number } | null> {
  try {
    const cpu = JSON.parse(await readFile(file, 'utf8')) as {
      mainThreadMs: number | null;
      processMs: number;
    };
    return cpu.mainThreadMs === null ? null : { mainThreadMs: cpu.mainThreadMs, processMs: cpu.processMs };
  } catch {
    return null;
  }
}

interface SuiteReport {
  scenarios: { total: number; passed: number; skipped: number };
  interfaces: { clauses: { scenarios?: { uri: string; name: string; durationMs: number }[] }[] }[];
}

/** Each scenario's duration by feature file and name (a scenario of several clauses counts once). */
function scenarioDurations(report: SuiteReport): Map<string, number> {
  const durations = new Map<string, number>();
  for (const face of report.interfaces)
    for (const clause of face.clauses)
      for (const s of clause.scenarios ?? []) durations.set(`${s.uri}\u0000${s.name}`, s.durationMs);
  return durations;
}

/** Scenario count and summed duration per feature folder (`features/<folder>/…`). */
function perFolder(durations: Map<string, number>): Map<string, { count: number; ms: number }> {
  const folders = new Map<string, { count: number; ms: number }>();
  for (const [key, ms] of durations) {
    const folder = key.split('/')[1] ?? '?';
    const entry = folders.get(folder) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += ms;
    folders.set(folder, entry);
  }
  return folders;
}

/** Per feature folder: scenarios per second of scenario time in each serial run, beside the first (the baseline). */
function printFolders(runs: { label: string; byFolder: Map<string, { count: number; ms: number }> }[]): void {
  const [baseline, ...others] = runs;
  if (!baseline) return;
  console.log(
    "\nper feature folder, scenarios per second of scenario time (serial runs; the certify folder's " +
      'certifications are made in the background while the other folders run, so part of their cost shows there):',
  );
  console.log(
    `${'folder'.padEnd(12)} ${'scenarios'.padStart(9)} ${baseline.label.padStart(26)} ${others.map((o) => o.label.padStart(26)).join(' ')}`,
  );
  const names = [...new Set(runs.flatMap((r) => [...r.byFolder.keys()]))].sort();
  for (const name of names) {
    const base = baseline.byFolder.get(name);
    const rate = (f: { count: number; ms: number } | undefined) =>
      f && f.ms > 0 ? (f.count / (f.ms / 1000)).toFixed(1) : '-';
    const cells = others.map((o) => {
      const f = o.byFolder.get(name);
      const ratio = f && base && f.ms > 0 && base.ms > 0 ? ` (${(base.ms / f.ms).toFixed(2)}×)` : '';
      return `${rate(f)}/s${ratio}`.padStart(26);
    });
    console.log(
      `${name.padEnd(12)} ${String(base?.count ?? '-').padStart(9)} ${`${rate(base)}/s`.padStart(26)} ${cells.join(' ')}`,
    );
  }
}
