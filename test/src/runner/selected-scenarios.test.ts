import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { loadConfiguration, loadSources } from '@cucumber/cucumber/api';
import { DEFAULT_FEATURE_PATHS, runSuite } from '../../../src/runner/run-suite.ts';
import { selectedScenarios } from '../../../src/runner/selected-scenarios.ts';

/*
 * Issue 31 §1: support code sees the selected scenarios before its first hook (the certify
 * features start their certifications there), and the certify features run last.
 */

const CUCUMBER_URL = import.meta.resolve('@cucumber/cucumber');
const SELECTED_URL = new URL('../../../src/runner/selected-scenarios.ts', import.meta.url).href;

test('the selected scenarios are published before BeforeAll, in run order, and withdrawn after the run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-selected-'));
  try {
    await mkdir(join(dir, 'features'));
    await mkdir(join(dir, 'steps'));
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    await writeFile(
      join(dir, 'features', 'a.feature'),
      'Feature: a\n  @keep\n  Scenario: one\n    Given a step\n\n  Scenario: left out\n    Given a step\n\n  @keep\n  Scenario: two\n    Given a step\n',
    );
    await writeFile(
      join(dir, 'steps', 'steps.ts'),
      `import { BeforeAll, Given } from '${CUCUMBER_URL}';
import { selectedScenarios } from '${SELECTED_URL}';
BeforeAll(function () {
  const { pickles, embedded } = selectedScenarios();
  (globalThis as Record<string, unknown>).__selectedAtBeforeAll = { names: pickles.map((p) => p.name), embedded };
});
Given('a step', function () {});
`,
    );
    const run = await runSuite({ cwd: dir, tags: '@keep', quiet: true, stderr: new PassThrough() });
    assert.equal(run.scenariosRun, 2);
    assert.deepEqual((globalThis as Record<string, unknown>)['__selectedAtBeforeAll'], {
      names: ['one', 'two'],
      embedded: true,
    });
    assert.deepEqual(selectedScenarios().pickles, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the default feature paths run every feature once, features/certify last', async () => {
  const { runConfiguration } = await loadConfiguration({
    file: false,
    provided: { paths: DEFAULT_FEATURE_PATHS },
  });
  const { plan } = await loadSources(runConfiguration.sources);
  const { runConfiguration: all } = await loadConfiguration({
    file: false,
    provided: { paths: ['features/**/*.feature'] },
  });
  const { plan: every } = await loadSources(all.sources);
  assert.deepEqual(
    plan.map((p) => `${p.uri}:${p.name}`).sort(),
    every.map((p) => `${p.uri}:${p.name}`).sort(),
  );
  const firstCertify = plan.findIndex((p) => p.uri.startsWith('features/certify/'));
  assert.ok(firstCertify > 0);
  assert.ok(plan.slice(firstCertify).every((p) => p.uri.startsWith('features/certify/')));
});
