import { EVENTUALLY_TIMEOUT_MS, pollUntil } from '../../support/eventually.ts';

export { EVENTUALLY_TIMEOUT_MS };

/**
 * Re-runs `check` until it reports no problem (`null`) or `timeoutMs` of real time pass, and
 * returns the last problem. For changes the controller learns over its link to a PBX (inventory,
 * reachability), which the harness cannot wait for in any other way; the virtual clocks are not
 * touched. The polling itself is the project's one helper (steps/support/eventually.ts).
 */
export async function eventually(
  check: () => Promise<string | null>,
  timeoutMs = EVENTUALLY_TIMEOUT_MS,
): Promise<string | null> {
  return (await pollUntil(check, (problem) => problem === null, { timeoutMs })).value;
}
