import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { judgeOwnThresholds } from '../../src/certify/judge-run.ts';
import { parseOutput } from '../../src/certify/plugin-output.ts';
import { alerts, parseRange } from '../../src/certify/threshold-range.ts';

/*
 * The threshold-range grammar of PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS against the table of examples
 * of the Monitoring Plugins development guidelines ("Threshold and ranges"), for every value
 * fast-check draws, and the grammar in general for drawn ranges.
 */

/** The guidelines' table: the range, and when it alerts. */
const TABLE: [string, (x: number) => boolean][] = [
  ['10', (x) => x < 0 || x > 10],
  ['10:', (x) => x < 10],
  ['~:10', (x) => x > 10],
  ['10:20', (x) => x < 10 || x > 20],
  ['@10:20', (x) => x >= 10 && x <= 20],
];

const value = fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -30, max: 30 }),
  fc.constantFrom(-0.0001, 0, 9.9999, 10, 10.0001, 19.999, 20, 20.0001),
);

for (const [range, alert] of TABLE) {
  test(`range ${range} alerts exactly as the guidelines' table says`, () => {
    const parsed = parseRange(range);
    assert.ok(parsed, range);
    fc.assert(
      fc.property(value, (x) => alerts(parsed, x) === alert(x)),
      { numRuns: 2000 },
    );
  });
}

test('any drawn range [@][start:][end] alerts outside start..end, or inside it with @', () => {
  const bound = fc.integer({ min: -1000, max: 1000 });
  fc.assert(
    fc.property(bound, bound, fc.boolean(), fc.boolean(), value, (a, b, at, infinite, x) => {
      const [start, end] = a <= b ? [a, b] : [b, a];
      const text = `${at ? '@' : ''}${infinite ? '~' : start}:${end}`;
      const parsed = parseRange(text);
      if (!parsed) return false;
      const low = infinite ? Number.NEGATIVE_INFINITY : start;
      const inside = x >= low && x <= end;
      return alerts(parsed, x) === (at ? inside : !inside);
    }),
    { numRuns: 2000 },
  );
  // `start:` alone runs to infinity; an end alone starts at 0.
  fc.assert(
    fc.property(bound, value, (start, x) => alerts(parseRange(`${start}:`) as never, x) === x < start),
  );
  fc.assert(
    fc.property(
      fc.nat({ max: 1000 }),
      value,
      (end, x) => alerts(parseRange(`${end}`) as never, x) === (x < 0 || x > end),
    ),
  );
});

test('empty fields, a lone @ or : and start above end are no range', () => {
  for (const text of ['', '@', ':', '@:', '20:10', 'abc', '1e3']) assert.equal(parseRange(text), null, text);
});

test('the state must follow the printed ranges: crit needs CRITICAL (or UNKNOWN), warn needs not OK', () => {
  const parsed = parseOutput('RAM OK - 93% used | ram_used=93%;70;90;0;100\n');
  assert.deepEqual(
    judgeOwnThresholds(parsed, 'OK').map((f) => f.message),
    ["'ram_used'=93% is outside its own crit range 90, but the state is OK"],
  );
  assert.equal(judgeOwnThresholds(parsed, 'WARNING').length, 1);
  assert.deepEqual(judgeOwnThresholds(parsed, 'CRITICAL'), []);
  assert.deepEqual(judgeOwnThresholds(parsed, 'UNKNOWN'), []);
  const warn = parseOutput('RAM WARNING | ram_used=75%;70;90\n');
  assert.equal(judgeOwnThresholds(warn, 'OK').length, 1);
  assert.deepEqual(judgeOwnThresholds(warn, 'WARNING'), []);
  // Inside an @ range alerts; U is never judged.
  assert.equal(judgeOwnThresholds(parseOutput('X | online=0%;;@0\n'), 'OK').length, 1);
  assert.deepEqual(judgeOwnThresholds(parseOutput('X | online=U;;@0\n'), 'OK'), []);
});
