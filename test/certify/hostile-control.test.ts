/**
 * The control-plane hostile of features/certify/plugin-sealed.feature is no straw man: against a
 * PBX that has a control listener (as certify's scenario PBX had before issue 28 §4) it finds its
 * PBX's control plane and changes the state it is judged against; against certify's scenario PBX
 * (in-process control, no listener) it finds none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { start } from '../../simulators/pbx/index.ts';
import { fetchRaw } from '../../src/certify/answer-proxy.ts';
import { isolatedRun } from '../../src/certify/isolated-env.ts';
import { openScenario } from '../../src/certify/open-scenario.ts';
import { BWRAP_VARIABLE, probeSandbox } from '../../src/certify/sandbox.ts';
import { watchedState } from '../../src/certify/watched-services.ts';
import { tempDir, throwawayPlugin } from './support.ts';

const FEATURE = join(import.meta.dirname, '..', '..', 'features', 'certify', 'plugin-sealed.feature');

/** The doc string of `Given the plug-in "<name>":` in the feature file, unindented. */
function pluginOfFeature(name: string): string {
  const text = readFileSync(FEATURE, 'utf8');
  const at = text.indexOf(`the plug-in "${name}":`);
  assert.ok(at >= 0, `no plug-in ${name} in ${FEATURE}`);
  const open = text.indexOf('"""\n', at) + 4;
  const close = text.indexOf('\n      """', open);
  return `${text
    .slice(open, close)
    .split('\n')
    .map((line) => line.slice(6))
    .join('\n')}\n`;
}

const unsealed = await probeSandbox({ ...process.env, [BWRAP_VARIABLE]: 'none' });

/** Runs the feature's control-plane hostile, unsealed, as a plug-in fetching from `host:port`. */
async function runHostile(t: TestContext, host: string, port: string) {
  const dir = await tempDir(t);
  const plugin = await throwawayPlugin(dir, 'check_control.py', pluginOfFeature('check_control.py'));
  const { run } = await isolatedRun({
    argv: [plugin, host, port],
    cwd: dir,
    env: process.env,
    timeoutMs: 30_000,
    sandbox: unsealed,
  });
  return run;
}

test('against a PBX with a control listener the hostile finds its control plane and changes its state', async (t) => {
  const pbx = await start({
    scenario: 'backup-failed',
    host: '127.0.0.1',
    monitoringPort: 0,
    clock: { mode: 'frozen' },
  });
  t.after(() => pbx.close());
  const [, host, port] = /^tcp:\/\/(.+):(\d+)$/.exec(pbx.urls.monitoring ?? '') ?? [];
  assert.ok(host && port);
  const address = { host, port: Number(port) };
  assert.equal(watchedState((await fetchRaw(address)) ?? '', ['PBX Backup*'])?.worst, 'CRITICAL');
  const run = await runHostile(t, host, port);
  assert.match(run.stdout, /found 1 control planes of my PBX, changed 1/, run.stdout + run.stderr);
  assert.equal(watchedState((await fetchRaw(address)) ?? '', ['PBX Backup*'])?.worst, 'OK');
});

test("against certify's scenario PBX the hostile finds no control plane, even unsealed", async (t) => {
  const opened = await openScenario({ kind: 'named', scenario: 'backup-failed' });
  t.after(() => opened.close());
  const run = await runHostile(t, opened.values.host, opened.values.port);
  assert.match(run.stdout, /found 0 control planes of my PBX, changed 0/, run.stdout + run.stderr);
  assert.equal(watchedState((await opened.servedText()) ?? '', ['PBX Backup*'])?.worst, 'CRITICAL');
});
