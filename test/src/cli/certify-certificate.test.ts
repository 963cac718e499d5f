import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statedCoverage, statedLevel, statedSandbox } from '../../../src/cli/certify-certificate.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';

/* What a certificate states of the level, coverage and sandbox: the outcome's own, or absent with a reason. */

test('the level and coverage are the outcome’s own, or absent with the reason', () => {
  assert.deepEqual(statedLevel({ level: 'values' }), { value: 'values' });
  assert.deepEqual(statedLevel({}), { absent: 'this certification does not grade a level' });
  assert.deepEqual(statedLevel({ level: 'gold' }), { absent: 'this certification does not grade a level' });
  const coverage = { declared: 3, tracked: 1, notTraced: 0, watched: 2, labels: 4 };
  assert.deepEqual(statedCoverage({ coverage }), { value: coverage });
  assert.deepEqual(statedCoverage({ coverage: null }), {
    absent: 'this certification does not state a coverage',
  });
});

test('the sandbox is the report’s: sealed, tool, reason and each protection present or absent', () => {
  const report = {
    sandbox: {
      sealed: false,
      tool: null,
      reason: 'bwrap is not installed',
      protections: [
        { name: 'environment', present: true, description: 'a cleared environment' },
        { name: 'pid-namespace', present: false, description: 'a PID namespace' },
      ],
    },
  } as unknown as CompatibilityReport;
  assert.deepEqual(statedSandbox(report), {
    value: {
      sealed: false,
      tool: null,
      reason: 'bwrap is not installed',
      protections: [
        { name: 'environment', present: true },
        { name: 'pid-namespace', present: false },
      ],
    },
  });
  assert.match(
    (statedSandbox({} as CompatibilityReport) as { absent: string }).absent,
    /does not say how sealed its runs were/,
  );
});
