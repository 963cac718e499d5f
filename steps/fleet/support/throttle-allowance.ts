/**
 * The first stretch of time in which more reports of one module were forwarded than the limit
 * allows, or `null` (EVENT-THROTTLE-BURST, EVENT-THROTTLE-RATE): in any stretch from one forwarded
 * report to a later one, at most `burst` plus one per full `intervalMs` may pass.
 *
 * EVENT-UNSPEC-THROTTLE-ALGORITHM: this bound holds for a token bucket that refills the burst as
 * well as for a burst that never refills, so it judges only what the spec states.
 * `forwardedAt` are PBX clock times in ms, in the order the reports were raised.
 */
export function allowanceExcess(
  forwardedAt: readonly number[],
  burst: number,
  intervalMs: number,
): string | null {
  const times = [...forwardedAt].sort((a, b) => a - b);
  for (let i = 0; i < times.length; i++) {
    for (let j = i; j < times.length; j++) {
      const from = times[i] as number;
      const to = times[j] as number;
      const passed = j - i + 1;
      const allowed = burst + Math.floor((to - from) / intervalMs);
      if (passed > allowed) {
        return `${passed} reports forwarded within ${to - from} ms, at most ${allowed} allowed`;
      }
    }
  }
  return null;
}
