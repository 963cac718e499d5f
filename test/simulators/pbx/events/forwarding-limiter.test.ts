import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  ForwardingLimiter,
  THROTTLE_BURST,
  THROTTLE_INTERVAL_MS,
} from '../../../../simulators/pbx/events/forwarding-limiter.ts';

const P = THROTTLE_INTERVAL_MS;
const T0 = 1_767_225_600_000;

/**
 * Reference model, written independently of the implementation: whole tokens, refilled one per full
 * interval since the bucket dropped below capacity; the refill clock stops while it is full.
 */
class TokenBucketModel {
  private readonly buckets = new Map<string, { tokens: number; anchor: number | null }>();
  take(key: string, t: number): boolean {
    const b = this.buckets.get(key) ?? { tokens: THROTTLE_BURST, anchor: null };
    this.buckets.set(key, b);
    if (b.anchor !== null) {
      const n = Math.floor((t - b.anchor) / P);
      b.tokens = Math.min(THROTTLE_BURST, b.tokens + n);
      b.anchor = b.tokens === THROTTLE_BURST ? null : b.anchor + n * P;
    }
    if (b.tokens < 1) return false;
    if (b.tokens === THROTTLE_BURST) b.anchor = t;
    b.tokens--;
    return true;
  }
}

/** Event timings: bursts (gap 0), seconds, around one interval, and long pauses; modules from a small mix. */
const gap = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 5_000 }),
  fc.integer({ min: P - 2, max: P + 2 }),
  fc.integer({ min: 1, max: 6 * P }),
);
const schedule = fc.array(
  fc.record({ gap, module: fc.constantFrom('Backup', 'Trunks', 'mod-42', 'Monitoring') }),
  { maxLength: 120 },
);

function timed(events: { gap: number; module: string }[]) {
  let t = T0;
  return events.map((e) => {
    t += e.gap;
    return { at: t, module: e.module };
  });
}

test('EVENT-THROTTLE-BURST, EVENT-THROTTLE-RATE, EVENT-UNSPEC-THROTTLE-ALGORITHM: every decision equals the token-bucket model', () => {
  fc.assert(
    fc.property(schedule, (events) => {
      const limiter = new ForwardingLimiter();
      const model = new TokenBucketModel();
      for (const e of timed(events))
        assert.equal(limiter.take(e.module, e.at), model.take(e.module, e.at), `at ${e.at - T0} ${e.module}`);
    }),
    { numRuns: 300 },
  );
});

test('EVENT-THROTTLE-RATE: nothing is forwarded beyond the allowance: within any span d at most 5 + floor(d / 2 min) per module', () => {
  fc.assert(
    fc.property(schedule, (events) => {
      const limiter = new ForwardingLimiter();
      const passed = new Map<string, number[]>();
      for (const e of timed(events)) {
        if (limiter.take(e.module, e.at)) passed.set(e.module, [...(passed.get(e.module) ?? []), e.at]);
      }
      for (const times of passed.values()) {
        for (let i = 0; i < times.length; i++) {
          for (let j = i; j < times.length; j++) {
            assert.ok(j - i + 1 <= THROTTLE_BURST + Math.floor((times[j]! - times[i]!) / P));
          }
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('EVENT-THROTTLE-BURST: the first 5 events of a module at one instant pass, the 6th is withheld, one more passes after 2 minutes', () => {
  const limiter = new ForwardingLimiter();
  const decisions = Array.from({ length: 6 }, () => limiter.take('Backup', T0));
  assert.deepEqual(decisions, [true, true, true, true, true, false]);
  assert.equal(limiter.take('Backup', T0 + P - 1), false);
  assert.equal(limiter.take('Backup', T0 + P), true);
  assert.equal(limiter.take('Backup', T0 + P), false);
  assert.equal(limiter.tokens('Backup', T0 + 5 * P + P), THROTTLE_BURST);
  assert.equal(limiter.tokens('unknown', T0), THROTTLE_BURST);
});

test('EVENT-THROTTLE-PER-MODULE: one module exhausting its limit does not change another module decisions', () => {
  fc.assert(
    fc.property(schedule, fc.constantFrom('Backup', 'Trunks'), (events, watched) => {
      const alone = new ForwardingLimiter();
      const mixed = new ForwardingLimiter();
      for (const e of timed(events)) {
        const decision = mixed.take(e.module, e.at);
        if (e.module === watched) assert.equal(decision, alone.take(e.module, e.at));
      }
    }),
  );
});
