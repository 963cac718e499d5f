import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeReports, ReportMergeError } from '../../../src/report/merge-reports.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { sampleReport } from './sample-report.ts';

/** The sample report as shard `index`/`total` of run `id`. */
function shard(index: number, total: number, id = 'run-a'): CompatibilityReport {
  const report = sampleReport();
  report.metadata.run = { id, shard: { index, total } };
  return report;
}

const refusal = (reports: CompatibilityReport[], pattern: RegExp, allowPartial = false) =>
  assert.throws(
    () => mergeReports(reports, { names: reports.map((_, i) => `s${i + 1}.json`), allowPartial }),
    (error: unknown) => error instanceof ReportMergeError && pattern.test(error.message),
  );

test('report merge joins each shard of one run once, all of them (issue 29, item 3)', () => {
  const merged = mergeReports([shard(2, 2), shard(1, 2)]);
  assert.deepEqual(merged.metadata.run, {
    id: 'run-a',
    merged: { total: 2, shards: [1, 2], partial: false },
  });
  assert.deepEqual(validateReport(merged), []);
});

test('report merge refuses a shard twice, mixed runs, a merged report, a report of no run and a missing shard', () => {
  refusal([shard(1, 2), shard(1, 2)], /^shard 1\/2 is given twice \(s1\.json and s2\.json\)/);
  refusal([shard(1, 2), shard(2, 2, 'run-b')], /^s2\.json is of run run-b, s1\.json of run run-a/);
  refusal([shard(1, 2), shard(2, 3)], /^s2\.json is shard 2\/3, s1\.json one of 2/);
  const earlier = mergeReports([shard(1, 2), shard(2, 2)]);
  refusal([shard(1, 2), earlier], /^s2\.json is already a merged report \(shards 1, 2 of 2\)/);
  const unnamed = sampleReport();
  refusal([unnamed], /^s1\.json names no run/);
  refusal([shard(1, 2)], /^shard 2\/2 of run run-a missing; give every shard's report, or --allow-partial/);
  refusal([shard(1, 3)], /^shards 2\/3, 3\/3 of run run-a missing/);
});

test('report merge --allow-partial joins fewer than N shards and the merged report says it is partial', () => {
  const merged = mergeReports([shard(1, 3), shard(3, 3)], { allowPartial: true });
  assert.deepEqual(merged.metadata.run, { id: 'run-a', merged: { total: 3, shards: [1, 3], partial: true } });
  assert.deepEqual(validateReport(merged), []);
  // Still not twice, and still one run.
  refusal([shard(1, 3), shard(1, 3)], /given twice/, true);
  refusal([shard(1, 3), shard(2, 3, 'run-b')], /of run run-b/, true);
});

const PROTECTIONS = [
  { name: 'environment', present: true, description: 'a cleared environment' },
  { name: 'read-only-filesystem', present: true, description: 'a read-only /' },
];

test('report merge carries the sandbox over: sealed when every shard was sealed, else the weakest', () => {
  const sealed = (index: number) => {
    const report = shard(index, 2);
    report.sandbox = { sealed: true, tool: 'bubblewrap 0.8.0', protections: structuredClone(PROTECTIONS) };
    return report;
  };
  const both = mergeReports([sealed(1), sealed(2)]);
  assert.deepEqual(both.sandbox, { sealed: true, tool: 'bubblewrap 0.8.0', protections: PROTECTIONS });
  assert.deepEqual(validateReport(both), []);

  const open = sealed(2);
  open.sandbox = {
    sealed: false,
    tool: null,
    reason: 'bwrap is not installed',
    protections: PROTECTIONS.map((p) => ({ ...p, present: p.name === 'environment' })),
  };
  const weakest = mergeReports([sealed(1), open], { names: ['s1.json', 's2.json'] });
  assert.equal(weakest.sandbox?.sealed, false);
  assert.equal(weakest.sandbox?.reason, 's2.json: bwrap is not installed');
  assert.deepEqual(
    weakest.sandbox?.protections.map((p) => [p.name, p.present]),
    [
      ['environment', true],
      ['read-only-filesystem', false],
    ],
  );
  assert.deepEqual(validateReport(weakest), []);

  const without = shard(2, 2);
  const unstated = mergeReports([sealed(1), without], { names: ['s1.json', 's2.json'] });
  assert.equal(unstated.sandbox?.sealed, false);
  assert.match(unstated.sandbox?.reason ?? '', /^s2\.json states no sandbox/);
  assert.equal(mergeReports([shard(1, 2), shard(2, 2)]).sandbox, undefined, 'no shard had one: none');
});
