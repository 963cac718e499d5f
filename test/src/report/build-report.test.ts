import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOT_VERIFIABLE_MEDIA_TYPE } from '../../../src/report/attachments.ts';
import type { ExpectedFailures } from '../../../src/report/expected-failures.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { renderJson } from '../../../src/report/render-json.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { buildFromMessages } from './build-from-messages.ts';
import { type SyntheticScenario, syntheticEnvelopes } from './synthetic-envelopes.ts';
import { testCatalog } from './test-catalog.ts';

const METADATA = {
  target: 'embedded',
  targetFile: null,
  startedAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:00:05.000Z',
  toolVersion: '0.1.0',
  tagExpression: null,
};

function build(
  scenarios: SyntheticScenario[],
  expected: ExpectedFailures['entries'] = [],
): CompatibilityReport {
  return buildFromMessages({
    envelopes: syntheticEnvelopes(scenarios),
    catalog: testCatalog(),
    metadata: METADATA,
    expectedFailures: {
      path: '/x/embedded.yaml',
      file: expected.length > 0 ? '/x/embedded.yaml' : null,
      entries: expected,
    },
  });
}

function clause(report: CompatibilityReport, id: string) {
  const found = report.interfaces.flatMap((i) => i.clauses).find((c) => c.id === id);
  assert.ok(found, id);
  return found;
}

const MIXED: SyntheticScenario[] = [
  { name: 'a passes', tags: ['@MON-A', '@MON-C'], steps: [{ text: 'x', status: 'PASSED' }] },
  { name: 'b fails', tags: ['@MON-B'], steps: [{ text: 'y', status: 'FAILED', message: 'boom' }] },
  { name: 'c also fails', tags: ['@MON-C'], steps: [{ text: 'z', status: 'FAILED', message: 'bang' }] },
  {
    name: 'x skipped',
    tags: ['@XMLRPC-A'],
    steps: [
      {
        text: 'w',
        status: 'SKIPPED',
        attachments: [
          { mediaType: NOT_VERIFIABLE_MEDIA_TYPE, body: JSON.stringify({ reason: 'no control plane' }) },
        ],
      },
    ],
  },
];

test('maps each scenario onto every clause it cites and applies the verdict rules', () => {
  const report = build(MIXED);
  assert.equal(clause(report, 'MON-A').verdict, 'pass');
  assert.equal(clause(report, 'MON-B').verdict, 'fail');
  assert.equal(clause(report, 'MON-C').verdict, 'fail');
  assert.deepEqual(
    clause(report, 'MON-C').scenarios.map((s) => s.name),
    ['a passes', 'c also fails'],
  );
  assert.equal(clause(report, 'MON-D').verdict, 'not-covered');
  assert.equal(clause(report, 'MON-INFO').verdict, 'not-testable');
  const xmlrpc = clause(report, 'XMLRPC-A');
  assert.equal(xmlrpc.verdict, 'not-verifiable');
  assert.equal(xmlrpc.reason, 'no control plane');
  assert.equal(clause(report, 'MON-B').scenarios[0]?.failure?.message, 'boom');
});

test('scores count passed out of testable clauses per interface, in catalog order', () => {
  const report = build(MIXED);
  assert.deepEqual(
    report.interfaces.map((i) => [i.id, i.score.passed, i.score.testable]),
    [
      ['MON', 1, 4],
      ['XMLRPC', 0, 1],
    ],
  );
  const mon = report.interfaces[0];
  assert.deepEqual(mon?.counts, {
    warn: 0,
    pass: 1,
    fail: 2,
    'not-verifiable': 0,
    'not-run': 0,
    'not-covered': 1,
    'not-testable': 1,
  });
  assert.deepEqual(report.clauses, {
    warn: 0,
    pass: 1,
    fail: 2,
    'not-verifiable': 1,
    'not-run': 0,
    'not-covered': 1,
    'not-testable': 1,
  });
  assert.deepEqual(report.scenarios, { total: 4, passed: 1, failed: 2, skipped: 1, other: 0 });
});

test('unlisted failures fail the run; listed ones are expected failures', () => {
  const unlisted = build(MIXED);
  assert.equal(unlisted.outcome.passed, false);
  assert.deepEqual(unlisted.baseline.unexpectedFailures, ['MON-B', 'MON-C']);
  assert.equal(clause(unlisted, 'MON-B').baseline?.status, 'unexpected-failure');

  const listed = build(MIXED, [
    { clause: 'MON-B', reason: 'known gap' },
    { clause: 'MON-C', reason: 'known gap too' },
  ]);
  assert.equal(listed.outcome.passed, true, listed.outcome.reasons.join('; '));
  assert.deepEqual(listed.baseline.expectedFailures, ['MON-B', 'MON-C']);
  assert.deepEqual(clause(listed, 'MON-B').baseline, { status: 'expected-failure', reason: 'known gap' });
  assert.equal(listed.baseline.present, true);
});

test('a listed clause that passes fails the run and asks for its removal', () => {
  const report = build(MIXED, [
    { clause: 'MON-A', reason: 'was broken' },
    { clause: 'MON-B', reason: 'known' },
    { clause: 'MON-C', reason: 'known' },
  ]);
  assert.equal(report.outcome.passed, false);
  assert.deepEqual(report.baseline.unexpectedPasses, ['MON-A']);
  assert.match(report.outcome.reasons.join('\n'), /remove them from \/x\/embedded\.yaml: MON-A/);
});

test('a run without scenarios fails', () => {
  const report = build([]);
  assert.equal(report.outcome.passed, false);
  assert.deepEqual(report.outcome.reasons, ['no scenario ran']);
  assert.equal(report.clauses['not-covered'], 5);
});

test('scenarios citing no catalog clause are listed, and fail the run when they fail', () => {
  const report = build([
    { name: 'a', tags: ['@MON-A'], steps: [{ text: 'x', status: 'PASSED' }] },
    { name: 'stray', tags: ['@wip'], steps: [{ text: 'x', status: 'FAILED' }] },
  ]);
  assert.deepEqual(
    report.untracedScenarios.map((s) => [s.name, s.status]),
    [['stray', 'failed']],
  );
  assert.equal(report.outcome.passed, false);
});

test('metadata carries the run facts and the Cucumber version from the meta message', () => {
  const report = build(MIXED);
  assert.equal(report.metadata.target, 'embedded');
  assert.equal(report.metadata.cucumberVersion, '12.9.0');
  assert.equal(report.metadata.catalogVersion, 1);
  assert.equal(report.reportVersion, 1);
});

test('--repeat: each clause is stable pass, stable fail or flaky across the runs, and a flaky one fails the run', () => {
  const catalog = testCatalog();
  const round = (monA: 'PASSED' | 'FAILED') =>
    syntheticEnvelopes([
      { name: 'a', tags: ['@MON-A'], steps: [{ text: 'a', status: monA, message: 'x' }] },
      { name: 'b', tags: ['@MON-B'], steps: [{ text: 'b', status: 'PASSED' }] },
      { name: 'c', tags: ['@MON-C'], steps: [{ text: 'c', status: 'FAILED', message: 'y' }] },
    ]);
  const runs = [round('PASSED'), round('FAILED'), round('PASSED')];
  const report = buildFromMessages({
    envelopes: runs.flat(),
    repeatedRuns: runs,
    catalog,
    expectedFailures: { path: 'x.yaml', file: null, entries: [] },
    metadata: {
      target: 't',
      targetFile: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      toolVersion: '0',
      tagExpression: null,
    },
  });
  const byId = new Map(report.interfaces.flatMap((i) => i.clauses).map((c) => [c.id, c]));
  assert.deepEqual(byId.get('MON-A')?.repeat, { verdicts: ['pass', 'fail', 'pass'], stability: 'flaky' });
  assert.equal(byId.get('MON-A')?.verdict, 'fail');
  assert.equal(byId.get('MON-B')?.repeat?.stability, 'stable-pass');
  assert.equal(byId.get('MON-C')?.repeat?.stability, 'stable-fail');
  assert.ok(
    report.outcome.reasons.some(
      (r) => r === '1 clause(s) flaky across 3 runs (verdicts differ between runs): MON-A',
    ),
  );
  assert.deepEqual(validateReport(JSON.parse(renderJson(report))), []);
});
