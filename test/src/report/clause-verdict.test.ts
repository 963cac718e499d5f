import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clauseVerdict, SKIPPED_WITHOUT_REASON } from '../../../src/report/clause-verdict.ts';
import type { ScenarioResult, ScenarioStatus } from '../../../src/report/model.ts';

function scenario(status: ScenarioStatus, notVerifiableReason?: string): ScenarioResult {
  const result: ScenarioResult = {
    name: status,
    uri: 'f.feature',
    line: 1,
    status,
    durationMs: 0,
    evidence: [],
  };
  if (notVerifiableReason !== undefined) result.notVerifiableReason = notVerifiableReason;
  return result;
}

test('any failed scenario makes the clause fail, even next to passes', () => {
  assert.deepEqual(clauseVerdict('black-box', [scenario('passed'), scenario('failed')]), { verdict: 'fail' });
});

test('pending, undefined, ambiguous and unknown scenarios count as failures', () => {
  for (const status of ['pending', 'undefined', 'ambiguous', 'unknown'] as const) {
    assert.equal(clauseVerdict('control', [scenario('passed'), scenario(status)]).verdict, 'fail', status);
  }
});

test('a pass with skipped siblings is a pass', () => {
  assert.deepEqual(clauseVerdict('black-box', [scenario('skipped', 'no control'), scenario('passed')]), {
    verdict: 'pass',
  });
});

test('all skipped scenarios give not-verifiable with their distinct reasons', () => {
  const verdict = clauseVerdict('control', [
    scenario('skipped', 'no control plane'),
    scenario('skipped', 'no control plane'),
    scenario('skipped'),
  ]);
  assert.deepEqual(verdict, {
    verdict: 'not-verifiable',
    reason: `no control plane; ${SKIPPED_WITHOUT_REASON}`,
  });
});

test('no scenario is not-covered, and not-testable clauses stay not-testable', () => {
  assert.deepEqual(clauseVerdict('client', []), { verdict: 'not-covered' });
  // Scenarios exist in the features but none ran (a tag filter): not a coverage gap.
  assert.deepEqual(clauseVerdict('client', [], true), { verdict: 'not-run' });
  assert.deepEqual(clauseVerdict('not-testable', [], true), { verdict: 'not-testable' });
  assert.deepEqual(clauseVerdict('not-testable', [scenario('failed')]), { verdict: 'not-testable' });
});
