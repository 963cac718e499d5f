import { failureText } from '../src/fuzz/fuzz-report.ts';
import { formatFuzzSummary } from '../src/fuzz/fuzz-summary.ts';
import { startEmbeddedTarget } from '../src/fuzz/fuzz-target.ts';
import { runFuzz } from '../src/fuzz/run-fuzz.ts';
import { FACES } from '../src/fuzz/types.ts';

const RUNS = Number(process.env.BENCH_FUZZ_RUNS ?? 20_000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 20_261_125);

/**
 * Issue 12, part 2: the long fuzz, at least 20,000 generated inputs per face against a fresh
 * simulator process (`simulate --json`), with the totals per face and the simulator's RSS at the
 * start, at its peak (sampled after every batch) and after the run. Prints, never asserts.
 */
export async function benchFuzz(): Promise<void> {
  console.log(`\n## fuzz: ${RUNS} inputs per face against a fresh simulator (seed ${SEED})`);
  const target = await startEmbeddedTarget();
  const started = performance.now();
  try {
    const result = await runFuzz(target.info, {
      runs: RUNS,
      seed: SEED,
      faces: FACES,
      boundMs: 15_000,
      batchSize: 250,
      maintenanceCommands: target.maintenanceCommands,
      ...(target.alive ? { alive: target.alive } : {}),
      ...(target.rss ? { rss: target.rss } : {}),
      progress: (line) => console.log(`  ${line}`),
    });
    process.stdout.write(formatFuzzSummary(result, failureText));
    const total = result.totals.reduce((sum, t) => sum + t.inputs, 0);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${total} inputs in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)} per second)`);
  } finally {
    await target.close();
  }
}
