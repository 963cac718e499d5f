import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interpretedScript } from '../../../src/certify/command-line.ts';
import { statedCoverage, statedLevel, statedSandbox } from '../../../src/cli/certify-certificate.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';

/* What a certificate states of the level, coverage and sandbox: the outcome's own, or absent with a reason. */

test('the level and coverage are the certification’s typed fields, every coverage count and nothing else', () => {
  assert.deepEqual(statedLevel({ level: 'values' }), { value: 'values' });
  assert.deepEqual(statedLevel({ level: 'form' }), { value: 'form' });
  const coverage = { declared: 3, tracked: 1, notTraced: 0, watched: 2, labels: 4 };
  assert.deepEqual(statedCoverage({ coverage: { ...coverage, extra: 9 } as typeof coverage }), {
    value: coverage,
  });
});

test('a plug-in command that starts with an interpreter names its script, for its name and its certificate alike', () => {
  assert.equal(interpretedScript(['python3.11', 'check.py', '-H', '{host}']), 'check.py');
  assert.equal(interpretedScript(['/usr/bin/pwsh', 'check.ps1']), 'check.ps1');
  assert.equal(interpretedScript(['python3', '-u', 'check.py']), null);
  assert.equal(interpretedScript(['./check_pbx', '-H', '{host}']), null);
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
