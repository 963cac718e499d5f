import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ViewRevisions } from '../../../../simulators/fleet-controller/model/view-revisions.ts';

test('touching a partner changes its revision and no other', () => {
  const views = new ViewRevisions();
  const a = views.of('p-a');
  const b = views.of('p-b');
  views.touchPartner('p-a');
  assert.notEqual(views.of('p-a'), a);
  assert.equal(views.of('p-b'), b);
});

test('touching everything changes every revision, and later touches still rise above it', () => {
  const views = new ViewRevisions();
  views.touchPartner('p-a');
  const a = views.of('p-a');
  const b = views.of('p-b');
  views.touchAll();
  const afterAll = views.of('p-a');
  assert.notEqual(afterAll, a);
  assert.notEqual(views.of('p-b'), b);
  views.touchPartner('p-a');
  assert.ok(views.of('p-a') > afterAll);
  // A number once seen never comes back.
  assert.notEqual(views.of('p-a'), a);
});
