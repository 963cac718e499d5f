import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareBaseline } from '../../../src/report/compare-baseline.ts';
import type { Verdict } from '../../../src/report/model.ts';

const verdicts: Array<{ id: string; verdict: Verdict }> = [
  { id: 'A', verdict: 'fail' },
  { id: 'B', verdict: 'fail' },
  { id: 'C', verdict: 'pass' },
  { id: 'D', verdict: 'pass' },
  { id: 'E', verdict: 'not-verifiable' },
  { id: 'F', verdict: 'not-covered' },
];

test('listed and failing is expected; failing and unlisted is unexpected', () => {
  const result = compareBaseline(verdicts, [{ clause: 'A', reason: 'gap' }]);
  assert.deepEqual(result.expectedFailures, ['A']);
  assert.deepEqual(result.unexpectedFailures, ['B']);
  assert.deepEqual(result.byClause.get('A'), { status: 'expected-failure', reason: 'gap' });
  assert.deepEqual(result.byClause.get('B'), { status: 'unexpected-failure' });
  assert.equal(result.byClause.has('C'), false);
});

test('a listed clause that passes is an unexpected pass', () => {
  const result = compareBaseline(verdicts, [{ clause: 'D', reason: 'was broken' }]);
  assert.deepEqual(result.unexpectedPasses, ['D']);
  assert.deepEqual(result.byClause.get('D'), { status: 'unexpected-pass', reason: 'was broken' });
});

test('listed clauses that were not judged are neither expected failures nor passes', () => {
  const result = compareBaseline(verdicts, [
    { clause: 'E', reason: 'r' },
    { clause: 'F', reason: 'r' },
    { clause: 'Z', reason: 'filtered out' },
  ]);
  assert.deepEqual(result.listedNotRun, ['E', 'F', 'Z']);
  assert.deepEqual(result.unexpectedPasses, []);
  assert.deepEqual(result.expectedFailures, []);
});

test('an empty baseline makes every failure unexpected', () => {
  const result = compareBaseline(verdicts, []);
  assert.deepEqual(result.unexpectedFailures, ['A', 'B']);
  assert.equal(result.byClause.size, 2);
});
