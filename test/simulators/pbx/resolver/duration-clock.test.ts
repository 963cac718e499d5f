import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { ResolverLimits } from '../../../../simulators/pbx/resolver/resolver-limits.ts';
import type { ResolverProvider } from '../../../../simulators/pbx/state/provider-config.ts';
import { durationClock } from '../../../../simulators/shared/clock.ts';
import { endpoint, logText, provider, resolveWith } from './resolver-fixture.ts';

/**
 * The harness shares the PBX's duration clock with its reference endpoint, whose answer delays
 * then pass on that clock instead of in real time (clock.ts, `durationClock`). The lookup must
 * measure them exactly as it measures a real delay: RESOLVER-TIMEOUT-WARNING and
 * RESOLVER-SLOW-NOT-ABORTED below the overall limit, the abort above it.
 */
async function lookupDelayedBy(
  t: TestContext,
  delayMs: number,
  overrides: Partial<ResolverProvider> = {},
  limits: Partial<ResolverLimits> = {},
) {
  const clock = durationClock();
  t.after(() => clock.dispose());
  const ep = await endpoint(t, {
    sharedClock: clock,
    config: { fallback: { body: '{"name":"Anna Schmidt"}', delayMs } },
  });
  const before = clock.now();
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`, overrides), undefined, {
    durationClock: clock,
    limits,
  });
  return { result, log: logText(result), skipped: clock.now() - before };
}

test('RESOLVER-SLOW-NOT-ABORTED: a delay skipped on the shared clock is measured, warned about and the answer evaluated', async (t) => {
  const { result, log, skipped } = await lookupDelayedBy(t, 4_000, { timeoutMs: 700 });
  assert.equal(result.state, 'resolved', log);
  const timing = result.attempts[0]?.lookup?.timing;
  assert.ok(timing && timing.totalMs >= 4_000, `measured ${timing?.totalMs} ms for a 4000 ms delay`);
  assert.equal(timing?.exceeded, true);
  assert.match(log, /warning timeout the answer took \d+ ms, more than the timeout of 700 ms/);
  assert.ok(skipped >= 4_000, 'the endpoint did not advance the shared clock');
});

test('RESOLVER-TIMEOUT-WARNING: a delay within the timeout on the shared clock gets no warning', async (t) => {
  const { result, log } = await lookupDelayedBy(t, 300, { timeoutMs: 1_500 });
  assert.equal(result.state, 'resolved', log);
  assert.doesNotMatch(log, /warning timeout/);
  assert.ok((result.attempts[0]?.lookup?.timing?.totalMs ?? 0) >= 300);
});

test('a delay skipped past the overall limit aborts the lookup at that limit, as a real one would', async (t) => {
  const { result, log } = await lookupDelayedBy(t, 60_000, {}, { totalMs: 10_000 });
  assert.equal(result.state, 'failed', log);
  assert.match(result.attempts[0]?.reason ?? '', /overall limit of 10000 ms/);
});
