import type { InterfaceResult } from './model.ts';

/**
 * An interface's score as people read it: `passed/testable`, or `not run` when the run verified
 * none of its clauses (no pass, no fail): left out by `--tags`, or not verifiable on this target
 * at all, e.g. FLEET and MCP against `simulate --no-fleet`. A `0/61` beside PASSED reads like a
 * failure it is not. The JSON report keeps the numbers.
 */
export function scoreText(i: InterfaceResult): string {
  return isNotRun(i) ? 'not run' : `${i.score.passed}/${i.score.testable}`;
}

/** Whether the run verified none of the interface's clauses (see {@link scoreText}). */
export function isNotRun(i: InterfaceResult): boolean {
  return i.counts.pass + i.counts.warn + i.counts.fail === 0;
}
