/** How long the harness waits for the controller to show a change that travels over a network link. */
export const EVENTUALLY_TIMEOUT_MS = 5_000;
const POLL_INTERVAL_MS = 25;

/**
 * Re-runs `check` until it reports no problem (`null`) or `timeoutMs` of real time pass, and
 * returns the last problem. For changes the controller learns over its link to a PBX (inventory,
 * reachability), which the harness cannot wait for in any other way; the virtual clocks are not
 * touched.
 */
export async function eventually(
  check: () => Promise<string | null>,
  timeoutMs = EVENTUALLY_TIMEOUT_MS,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = await check();
    if (problem === null || Date.now() >= deadline) return problem;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
