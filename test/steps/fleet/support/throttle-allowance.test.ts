import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { allowanceExcess } from '../../../../steps/fleet/support/throttle-allowance.ts';

const TWO_MINUTES = 120_000;

/** A token bucket of 5 refilled at one per two minutes: what it forwards of `times`. */
function tokenBucket(times: number[]): number[] {
  let tokens = 5;
  let last = times[0] ?? 0;
  const passed: number[] = [];
  for (const t of times) {
    tokens = Math.min(5, tokens + (t - last) / TWO_MINUTES);
    last = t;
    if (tokens >= 1) {
      tokens -= 1;
      passed.push(t);
    }
  }
  return passed;
}

const timeline = fc.array(fc.integer({ min: 0, max: 4 * TWO_MINUTES }), { maxLength: 40 }).map((gaps) => {
  let t = 0;
  return gaps.map((g) => {
    t += g;
    return t;
  });
});

test('EVENT-THROTTLE-RATE: what a token bucket of 5 refilled every two minutes forwards is within the allowance', () => {
  fc.assert(fc.property(timeline, (times) => allowanceExcess(tokenBucket(times), 5, TWO_MINUTES) === null));
});

test('EVENT-THROTTLE-BURST: forwarding every report of a busy module exceeds the allowance', () => {
  assert.equal(allowanceExcess([0, 0, 0, 0, 0], 5, TWO_MINUTES), null);
  assert.match(allowanceExcess([0, 0, 0, 0, 0, 0], 5, TWO_MINUTES) ?? '', /6 reports forwarded within 0 ms/);
  assert.match(
    allowanceExcess([0, 0, 0, 0, 0, TWO_MINUTES, TWO_MINUTES + 1], 5, TWO_MINUTES) ?? '',
    /at most 6/,
  );
  assert.equal(allowanceExcess([0, 0, 0, 0, 0, TWO_MINUTES, 2 * TWO_MINUTES], 5, TWO_MINUTES), null);
});
