import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { binaryUnit } from '../../../steps/support/binary-unit.ts';

test("binaryUnit draws the same strings as fast-check's unit 'binary' for the same seed, dangerous strings included", () => {
  for (const constraints of [{ minLength: 1, maxLength: 24 }, { maxLength: 40 }]) {
    const ours = fc.sample(fc.string({ unit: binaryUnit, ...constraints }), { seed: 31, numRuns: 2_000 });
    const theirs = fc.sample(fc.string({ unit: 'binary', ...constraints }), { seed: 31, numRuns: 2_000 });
    assert.deepEqual(ours, theirs);
    // fast-check mixes in its dangerous strings (`__proto__`, …) only when the unit can map them back.
    assert.ok(
      ours.some((s) => ['__proto__', 'constructor', 'toString', 'valueOf'].some((d) => s.includes(d))),
    );
  }
});

test('binaryUnit maps every code point but a surrogate back, and refuses what it cannot draw', () => {
  for (const point of [0, 0x22, 0x7c, 0xd7ff, 0xe000, 0xfffd, 0x1f600, 0x10ffff]) {
    const char = String.fromCodePoint(point);
    assert.ok(binaryUnit.canShrinkWithoutContext(char), `U+${point.toString(16)}`);
  }
  for (const value of ['\ud800', '\udfff', 'ab', '', 7, null])
    assert.equal(binaryUnit.canShrinkWithoutContext(value), false, JSON.stringify(value));
});
