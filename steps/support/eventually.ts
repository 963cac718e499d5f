/**
 * The one "eventually" of the project (issue 15): polls a check on real time until it is
 * satisfied or a bounded wait is over. Steps and tests use it instead of their own loops, so there
 * is one timeout/interval policy and one message shape. Real timers only: the harness's own waits
 * never run on a simulator's virtual clock (which may be frozen).
 *
 * Kept by hand rather than `p-wait-for`: the steps need the last observed value back (a problem
 * text, the events seen) and not only "it held", and these dozen lines do not earn a dependency.
 */

/** Default bound of a wait: long enough for a change that travels over a loopback link on a busy machine. */
export const EVENTUALLY_TIMEOUT_MS = 5_000;
/** Default pause between two checks. */
export const EVENTUALLY_INTERVAL_MS = 25;

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** What {@link pollUntil} saw last, and whether it was accepted before the wait was over. */
export interface PollOutcome<T> {
  ok: boolean;
  value: T;
  waitedMs: number;
}

/**
 * Runs `check` until `accept` holds for its value or `timeoutMs` of real time pass (checking at
 * least once, and once more at the end), and returns the last value.
 */
export async function pollUntil<T>(
  check: () => T | Promise<T>,
  accept: (value: T) => boolean,
  options: PollOptions = {},
): Promise<PollOutcome<T>> {
  const timeoutMs = options.timeoutMs ?? EVENTUALLY_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? EVENTUALLY_INTERVAL_MS;
  const started = Date.now();
  for (;;) {
    const value = await check();
    const waitedMs = Date.now() - started;
    if (accept(value)) return { ok: true, value, waitedMs };
    if (waitedMs >= timeoutMs) return { ok: false, value, waitedMs };
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, timeoutMs - waitedMs)));
  }
}

/**
 * Waits until `check` holds; throws `timed out after <n> ms waiting for <what>` when it does not
 * within `timeoutMs`. For tests and fixtures: a bounded wait, never a timing assertion.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  options: PollOptions = {},
): Promise<void> {
  const outcome = await pollUntil(check, (held) => held, options);
  if (!outcome.ok) throw new Error(`timed out after ${outcome.waitedMs} ms waiting for ${what}`);
}
