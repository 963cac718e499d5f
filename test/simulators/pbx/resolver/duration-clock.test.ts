import assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationClock } from '../../../../simulators/shared/clock.ts';
import { endpoint, logText, provider, resolveWith } from './resolver-fixture.ts';

/**
 * The harness shares the PBX's duration clock with its reference endpoint, whose answer delays
 * then pass on that clock instead of in real time (clock.ts, `durationClock`). The lookup must
 * measure them exactly as it measures a real delay: RESOLVER-TIMEOUT-WARNING and
 * RESOLVER-SLOW-NOT-ABORTED below the overall limit, the abort above it.
 */

test('RESOLVER-SLOW-NOT-ABORTED: a delay skipped on the shared clock is measured, warned about and the answer evaluated', async (t) => {
  const clock = durationClock();
  t.after(() => clock.dispose());
  const ep = await endpoint(t, {
    sharedClock: clock,
    config: { fallback: { body: '{"name":"Anna Schmidt"}', delayMs: 4_000 } },
  });
  const before = clock.now();
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`, { timeoutMs: 700 }), undefined, {
    durationClock: clock,
  });
  assert.equal(result.state, 'resolved', logText(result));
  const timing = result.attempts[0]?.lookup?.timing;
  assert.ok(timing && timing.totalMs >= 4_000, `measured ${timing?.totalMs} ms for a 4000 ms delay`);
  assert.equal(timing?.exceeded, true);
  assert.match(logText(result), /warning timeout the answer took \d+ ms, more than the timeout of 700 ms/);
  assert.ok(clock.now() - before >= 4_000, 'the endpoint did not advance the shared clock');
});

test('RESOLVER-TIMEOUT-WARNING: a delay within the timeout on the shared clock gets no warning', async (t) => {
  const clock = durationClock();
  t.after(() => clock.dispose());
  const ep = await endpoint(t, {
    sharedClock: clock,
    config: { fallback: { body: '{"name":"Anna Schmidt"}', delayMs: 300 } },
  });
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`, { timeoutMs: 1_500 }), undefined, {
    durationClock: clock,
  });
  assert.equal(result.state, 'resolved', logText(result));
  assert.doesNotMatch(logText(result), /warning timeout/);
  assert.ok((result.attempts[0]?.lookup?.timing?.totalMs ?? 0) >= 300);
});

test('a delay skipped past the overall limit aborts the lookup at that limit, as a real one would', async (t) => {
  const clock = durationClock();
  t.after(() => clock.dispose());
  const ep = await endpoint(t, {
    sharedClock: clock,
    config: { fallback: { body: '{"name":"Anna Schmidt"}', delayMs: 60_000 } },
  });
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`), undefined, {
    durationClock: clock,
    limits: { totalMs: 10_000 },
  });
  assert.equal(result.state, 'failed', logText(result));
  assert.match(result.attempts[0]?.reason ?? '', /overall limit of 10000 ms/);
});
