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

test('the sites touched since a revision are named, until the partner as a whole or everything is touched', () => {
  const views = new ViewRevisions();
  views.touchSite('s-1', ['p-a']);
  const seen = views.of('p-a');
  assert.deepEqual(views.sitesTouchedSince('p-a', seen), []);
  views.touchSite('s-2', ['p-a', 'p-b']);
  views.touchSite('s-3', ['p-b']);
  assert.notEqual(views.of('p-a'), seen, 'a touched site changes the revision of its partners');
  assert.deepEqual(views.sitesTouchedSince('p-a', seen)?.sort(), ['s-2', 's-3']);
  views.touchSite('s-2', ['p-a']);
  assert.deepEqual(views.sitesTouchedSince('p-a', seen)?.sort(), ['s-2', 's-3'], 'each site once');
  const later = views.of('p-a');
  views.touchPartner('p-b');
  assert.deepEqual(views.sitesTouchedSince('p-a', later), [], 'another partner is not this one');
  views.touchPartner('p-a');
  assert.equal(views.sitesTouchedSince('p-a', later), undefined, 'the partner as a whole changed');
  const now = views.of('p-a');
  views.touchAll();
  assert.equal(views.sitesTouchedSince('p-a', now), undefined, 'everything changed');
});
