import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ItemView } from '../../../../steps/fleet/support/fleet-context.ts';
import {
  withheldArrived,
  withheldProblem,
  withheldReports,
} from '../../../../steps/fleet/support/withheld-count.ts';

const item = (occurrences: number, suppressed: number): ItemView => ({
  id: 1,
  module: 'Überwachung',
  subject: 'Temperatur zu hoch',
  severity: 'WARNING',
  firstAt: 1,
  lastAt: 2,
  occurrences,
  suppressed,
});

test('EVENT-THROTTLE-SUPPRESSED: the withheld reports are those raised but never received', () => {
  assert.equal(withheldReports({ label: 'a', raised: 8, item: item(5, 0) }), 3);
  assert.equal(withheldReports({ label: 'a', raised: 8, item: undefined }), undefined);
});

test('EVENT-UNSPEC-THROTTLE-ALGORITHM: a count has arrived once suppressed reaches the withheld reports, not before', () => {
  assert.equal(withheldArrived({ label: 'a', raised: 8, item: item(5, 0) }), false);
  assert.equal(withheldArrived({ label: 'a', raised: 9, item: item(6, 2) }), false, 'part of the count');
  assert.equal(withheldArrived({ label: 'a', raised: 9, item: item(6, 3) }), true);
  assert.equal(withheldArrived({ label: 'a', raised: 9, item: item(6, 5) }), true, 'too many ends the wait');
  assert.equal(withheldArrived({ label: 'a', raised: 3, item: undefined }), false);
});

test('FLEET-ITEM-SUPPRESSED: suppressed must equal the withheld reports exactly', () => {
  assert.equal(withheldProblem({ label: 'a', raised: 9, item: item(6, 3) }, 1), null);
  assert.match(
    withheldProblem({ label: 'a', raised: 9, item: item(6, 5) }, 1) ?? '',
    /suppressed is 5, but 3/,
  );
  assert.match(withheldProblem({ label: 'a', raised: 20, item: item(12, 3) }, 12) ?? '', /after 12 round/);
  assert.match(withheldProblem({ label: 'a', raised: 2, item: undefined }, 0) ?? '', /not listed/);
});
