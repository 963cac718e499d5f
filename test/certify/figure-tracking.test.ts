/**
 * Figure tracking (PLUGIN-FIGURES-FOLLOW-SERVED) on hand-made runs: what it accuses and what it
 * must never accuse. The end-to-end proofs with real plug-ins are in served-truth.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type TrackedRun, trackFigures } from '../../src/certify/figure-tracking.ts';

const run = (
  name: string,
  figures: Record<string, number> | null,
  values: Record<string, string>,
): TrackedRun => ({
  run: name,
  figures: figures === null ? null : new Map(Object.entries(figures)),
  values: new Map(Object.entries(values)),
});

const only = (runs: TrackedRun[]) => {
  const [tracking] = trackFigures(runs);
  assert.ok(tracking);
  return tracking;
};

test('a label that equals a moving figure in every run follows it', () => {
  const t = only([
    run('a', { known: 148, online: 139 }, { phones: '139' }),
    run('b', { known: 400, online: 343 }, { phones: '343' }),
    run('c', { known: 148, online: 0 }, { phones: '0' }),
  ]);
  assert.equal(t.kind, 'follows');
  assert.ok(t.kind === 'follows' && t.figures.includes('online'));
});

test('a coincidence in one state raises no alarm: the candidates narrow run by run', () => {
  const t = only([
    run('a', { active: 12, online: 12 }, { phones: '12' }),
    run('b', { active: 7, online: 30 }, { phones: '30' }),
    run('c', { active: 30, online: 41 }, { phones: '41' }),
  ]);
  assert.deepEqual(t, { label: 'phones', kind: 'follows', figures: ['online'] });
});

test('an answer kept from the first run is caught once the figures move, even where a still figure explained it', () => {
  const named = [
    run('healthy', { known: 148, provisioned: 148 }, { known: '148' }),
    run('backup-failed', { known: 148, provisioned: 148 }, { known: '148' }),
    run('large', { known: 400, provisioned: 148 }, { known: '148' }),
  ];
  // Among the catalog's scenarios alone a figure that never moved explains the label: no alarm.
  assert.equal(only(named).kind, 'follows');
  // A generated state moves every figure: nothing explains the label any more.
  const t = only([...named, run('generated #1', { known: 77, provisioned: 312 }, { known: '148' })]);
  assert.equal(t.kind, 'broken');
  assert.ok(t.kind === 'broken');
  assert.ok(['known', 'provisioned'].includes(t.evidence.figure), t.evidence.figure);
  assert.match(
    t.message,
    /printed 148 in (large|generated #1), where the PBX served (400|77|312) \(the same value as before/,
  );
});

test('a label that tracked a figure at two values and then stops is broken', () => {
  const t = only([
    run('a', { online: 139 }, { phones: '139' }),
    run('b', { online: 343 }, { phones: '343' }),
    run('c', { online: 20 }, { phones: '55' }),
  ]);
  assert.equal(t.kind, 'broken');
  assert.ok(t.kind === 'broken' && t.evidence.run === 'c' && t.evidence.served === 20);
});

test('numbers printed where the PBX served nothing are invented data', () => {
  const t = only([
    run('a', { online: 139 }, { phones: '139' }),
    run('b', { online: 343 }, { phones: '343' }),
    run('endpoint-down', null, { phones: '0' }),
  ]);
  assert.equal(t.kind, 'broken');
  assert.match(
    t.kind === 'broken' ? t.message : '',
    /printed 0 in endpoint-down, where the PBX served nothing/,
  );
});

test('a small whole number repeated while some figure moved is no evidence of a cache', () => {
  // A computed count (2 failed backups) that some unrelated figure equalled twice.
  const t = only([
    run('a', { parked: 2 }, { failed: '2' }),
    run('b', { parked: 2 }, { failed: '2' }),
    run('c', { parked: 5 }, { failed: '2' }),
  ]);
  assert.equal(t.kind, 'not-traced');
});

test('a ratio or percentage of two figures explains a label but never accuses it', () => {
  const follows = only([
    run('a', { online: 139, known: 148 }, { pct: '93.9' }),
    run('b', { online: 343, known: 400 }, { pct: '85.8' }),
  ]);
  assert.equal(follows.kind, 'follows');
  assert.ok(follows.kind === 'follows' && follows.figures.some((f) => f.startsWith('percent(')));
  const untraced = only([
    run('a', { online: 139, known: 148 }, { pct: '93.9' }),
    run('b', { online: 343, known: 400 }, { pct: '93.9' }),
  ]);
  assert.equal(untraced.kind, 'not-traced');
});

test('a computed count that equalled a figure at two small values accuses nothing', () => {
  // check_pbx_backups counts failed targets; a peers figure happened to be 1 and 3 in two states.
  const t = only([
    run('backup-failed', { peersOffline: 1 }, { backups_failed: '1' }),
    run('generated #2', { peersOffline: 3 }, { backups_failed: '3' }),
    run('healthy', { peersOffline: 1 }, { backups_failed: '0' }),
  ]);
  assert.equal(t.kind, 'not-traced');
});
