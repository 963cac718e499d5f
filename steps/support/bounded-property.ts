import * as fc from 'fast-check';
import type { PbxWorld } from './world.ts';

/**
 * Runs a fast-check property against the live target with a bounded number of runs and no
 * shrinking beyond a few steps (every run talks to the target). On failure it attaches seed, path
 * and counterexample as evidence, so the run can be replayed with `fc.assert(…, { seed, path })`,
 * and rethrows with fast-check's report.
 */
export async function assertLiveProperty<Ts extends [unknown, ...unknown[]]>(
  world: PbxWorld,
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(property, { numRuns, endOnFailure: true, interruptAfterTimeLimit: 90_000 });
  world.evidence({
    exchange: `property ${name}`,
    details: {
      runs: details.numRuns,
      seed: details.seed,
      ...(details.failed
        ? { path: details.counterexamplePath, counterexample: fc.stringify(details.counterexample) }
        : {}),
      interrupted: details.interrupted,
    },
  });
  if (details.failed) {
    const error = details.errorInstance;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `property "${name}" failed after ${details.numRuns} run(s) (seed ${details.seed}, path ${details.counterexamplePath}):\n` +
        `counterexample ${fc.stringify(details.counterexample)}\n${reason}`,
    );
  }
  if (details.numRuns === 0) throw new Error(`property "${name}" ran no case`);
}
