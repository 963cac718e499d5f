import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertReportTime } from '../../../../steps/fleet/support/report-time.ts';

test('on a frozen clock the item time must be the one instant of the report', () => {
  assertReportTime(1_000, [1_000, 1_000], 'firstAt');
  assert.throws(() => assertReportTime(1_001, [1_000, 1_000], 'firstAt'), /firstAt/);
  assert.throws(() => assertReportTime('1000', [1_000, 1_000], 'firstAt'), /firstAt/);
});

test('on a running clock the item time must lie within the readings around the report', () => {
  assertReportTime(1_000, [1_000, 1_004], 'lastAt');
  assertReportTime(1_004, [1_000, 1_004], 'lastAt');
  assert.throws(() => assertReportTime(999, [1_000, 1_004], 'lastAt'), /between 1000 and 1004/);
  assert.throws(() => assertReportTime(1_005, [1_000, 1_004], 'lastAt'), /lastAt/);
  assert.throws(() => assertReportTime(1_000_000, [1_000, 1_004], 'lastAt'), /lastAt/);
});

test('a missing report time fails instead of passing', () => {
  assert.throws(() => assertReportTime(1_000, undefined, 'firstAt'), /no report time/);
});
