import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
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

test('the sites touched since any revision are exactly those a walk over every site finds, across compactions of the touch log', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          { weight: 1_000, arbitrary: fc.record({ kind: fc.constant('site' as const), site: fc.nat(12) }) },
          { weight: 1, arbitrary: fc.constant({ kind: 'all' as const }) },
        ),
        { maxLength: 2_000, size: 'max' },
      ),
      fc.array(fc.nat(2_000), { minLength: 1, maxLength: 8 }),
      (ops, probes) => {
        const views = new ViewRevisions();
        const lastTouch = new Map<string, number>();
        const seen: number[] = [views.of('p')];
        for (const op of ops) {
          if (op.kind === 'all') {
            views.touchAll();
            lastTouch.clear();
          } else {
            views.touchSite(`s-${op.site}`, ['p']);
            lastTouch.set(`s-${op.site}`, views.of('p'));
          }
          seen.push(views.of('p'));
        }
        for (const probe of probes) {
          const revision = seen[probe % seen.length]!;
          const got = views.sitesTouchedSince('p', revision);
          if (got === undefined) continue;
          const expected = [...lastTouch].filter(([, at]) => at > revision).map(([site]) => site);
          assert.deepEqual([...got].sort(), expected.sort());
        }
      },
    ),
    // Long runs: a failure is reported as found, not shrunk.
    { numRuns: 60, endOnFailure: true },
  );
});

test('the touch log, compacted many times over, still names exactly the sites touched since each revision', () => {
  const views = new ViewRevisions();
  const lastTouch = new Map<string, number>();
  const seen: number[] = [];
  for (let i = 0; i < 8_000; i++) {
    // Quiet sites touched once each early on, busy ones all along.
    const site = i < 1_500 && i % 2 === 0 ? `q-${i}` : `b-${(i * 7) % 5}`;
    views.touchSite(site, ['p']);
    lastTouch.set(site, views.of('p'));
    seen.push(views.of('p'));
  }
  for (let at = 0; at < seen.length; at += 97) {
    const expected = [...lastTouch].filter(([, touched]) => touched > seen[at]!).map(([site]) => site);
    assert.deepEqual(views.sitesTouchedSince('p', seen[at]!)?.sort(), expected.sort(), `since ${seen[at]}`);
  }
});
