import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { ParsedTarget } from '../../../src/core/target-file.ts';
import { collectScenarioResults } from '../../../src/report/scenario-results.ts';
import { runSuite } from '../../../src/runner/run-suite.ts';
import { createThrowawaySuite } from './throwaway-suite.ts';

test('runs the features, passes the target file to the steps and collects every message', async () => {
  const suite = await createThrowawaySuite();
  try {
    const stdout = new PassThrough();
    let progress = '';
    stdout.on('data', (chunk: Buffer) => {
      progress += chunk.toString('utf8');
    });
    const run = await runSuite({
      cwd: suite.dir,
      target: { file: '/tmp/target.json', description: { name: 'lab' } as ParsedTarget['description'] },
      stdout,
      stderr: stdout,
    });
    assert.equal(run.scenariosRun, 3);
    assert.deepEqual(run.parseErrors, []);
    assert.equal(run.cucumberSuccess, false);
    assert.ok(Date.parse(run.finishedAt) >= Date.parse(run.startedAt));
    assert.match(progress, /^FAIL MON-B: expected <agent> text \(features\/throwaway.feature\)$/m);
    assert.match(progress, /^progress: 3\/3 scenarios, 1 failure, \d+ s elapsed$/m);
    const results = collectScenarioResults(run.envelopes);
    const passed = results.find((r) => r.result.status === 'passed');
    assert.deepEqual(passed?.result.evidence[0]?.details, { target: '/tmp/target.json' });
    const skipped = results.find((r) => r.result.status === 'skipped');
    assert.equal(skipped?.result.notVerifiableReason, 'the target has no control plane');
  } finally {
    await suite.cleanup();
  }
});

test('quiet runs print nothing; a tag filter that matches nothing runs no scenario', async () => {
  const suite = await createThrowawaySuite();
  try {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const run = await runSuite({ cwd: suite.dir, tags: '@NOTHING', quiet: true, stdout: out, stderr: out });
    assert.equal(run.scenariosRun, 0);
    assert.equal(text, '');
  } finally {
    await suite.cleanup();
  }
});

test('a feature file that does not parse is reported as a parse error', async () => {
  const suite = await createThrowawaySuite(
    'Feature: x\n  Scenario: y\n    Given a passing step\n  this is not gherkin\n',
  );
  try {
    const run = await runSuite({ cwd: suite.dir, quiet: true, stderr: new PassThrough() });
    assert.equal(run.scenariosRun, 0);
    assert.equal(run.parseErrors.length, 1);
    assert.match(run.parseErrors[0] ?? '', /^features\/throwaway\.feature: /);
  } finally {
    await suite.cleanup();
  }
});
