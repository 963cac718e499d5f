import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { durationClock, VirtualClock } from '../../../simulators/shared/clock.ts';

const DAY_MS = 86_400_000;

test('a running clock does not fire a timer set further ahead than a Node timer can wait', async () => {
  const clock = new VirtualClock({ mode: 'running' });
  let fired = 0;
  clock.setTimer(() => fired++, 400 * DAY_MS);
  await sleep(30);
  assert.equal(fired, 0, 'fired long before it was due');
  assert.equal(clock.pendingTimers(), 1);
  clock.advance(400 * DAY_MS);
  assert.equal(fired, 1, 'advancing past the due time fires it');
  assert.equal(clock.pendingTimers(), 0);
  clock.dispose();
});

test('a running clock fires a short timer on its own', async () => {
  const clock = new VirtualClock({ mode: 'running' });
  let fired = 0;
  clock.setTimer(() => fired++, 5);
  for (let i = 0; i < 200 && fired === 0; i++) await sleep(5);
  assert.equal(fired, 1);
  clock.dispose();
});

test('a duration clock flows with real time and advance() skips ahead, firing what falls due in order', async () => {
  const clock = durationClock();
  const fired: string[] = [];
  clock.setTimer(() => fired.push('late'), 9_000);
  clock.setTimer(() => fired.push('early'), 2_000);
  const before = clock.now();
  await sleep(20);
  const flowed = clock.now() - before;
  assert.ok(flowed > 0, 'the clock did not flow with real time');
  assert.deepEqual(fired, [], 'timers fired before they were due');
  clock.advance(5_000);
  assert.deepEqual(fired, ['early'], 'advancing 5 s fires only the timer due at 2 s');
  assert.ok(clock.now() - before >= 5_000 + flowed, 'the skipped time is not measured');
  clock.advance(5_000);
  assert.deepEqual(fired, ['early', 'late']);
  clock.dispose();
});
