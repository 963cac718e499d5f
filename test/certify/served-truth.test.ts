import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BWRAP_VARIABLE } from '../../src/certify/sandbox.ts';
import { certify, clauseOf, EXAMPLES, sealedOrSkip, tempDir } from './support.ts';

/*
 * Issue 19, "Done when": certify-plugin without expectations fails a plug-in written against the
 * old channels line, one caching in a fixed folder and one inventing zeros when the PBX is down;
 * with only `plugin` and `watches` it fails one reading phones online from the wrong key; it
 * passes the correct plug-ins.
 */

const SCENARIOS = [
  'healthy',
  'backup-failed',
  'all-phones-offline',
  'large',
  'endpoint-down',
  'render-error',
].flatMap((s) => ['--scenario', s]);
const run = (file: string, extra: string[] = []) => [
  ...SCENARIOS,
  ...extra,
  '--reports',
  'out',
  '--',
  join(EXAMPLES, file),
  '-H',
  '{host}',
  '-p',
  '{port}',
  '-t',
  '{timeout}',
];

// Generated states (on by default) are what catch a cache; the other broken plug-ins fail on the
// catalog's scenarios alone, so their tests leave them out (--runs 0) to stay quick.
const NO_GENERATED = ['--runs', '0'];

test('a plug-in written against the old channels line fails (PLUGIN-KNOWN-WHEN-SERVED)', async (t) => {
  const result = await certify(await tempDir(t), run('broken/check_pbx_channels_old_line.py', NO_GENERATED));
  assert.equal(result.code, 1, result.out);
  assert.equal(clauseOf(await result.report(), 'PLUGIN-KNOWN-WHEN-SERVED').verdict, 'fail');
});

test('unsealed, a plug-in caching in a fixed folder fails (PLUGIN-FIGURES-FOLLOW-SERVED): served truth is the second line of defence', async (t) => {
  const dir = await tempDir(t);
  // No sandbox: the fixed folder (given on the command line, since the run's environment is
  // cleared) keeps the first answer from run to run.
  const env = { ...process.env, [BWRAP_VARIABLE]: 'none' };
  const plugin = run('broken/check_pbx_phones_cached.py');
  const result = await certify(dir, [...plugin, '--cache-dir', join(dir, 'fixed-cache')], env);
  assert.equal(result.code, 1, result.out);
  const clause = clauseOf(await result.report(), 'PLUGIN-FIGURES-FOLLOW-SERVED');
  assert.equal(clause.verdict, 'fail');
  assert.match(clause.scenarios[0]?.failure?.message ?? '', /printed .* where the PBX served/);
});

test('sealed, the same plug-in caching in /var/tmp carries no answer over: every run has a fresh /var/tmp', async (t) => {
  if (!(await sealedOrSkip(t))) return;
  const cache = '/var/tmp/check_pbx_phones/agent.txt';
  const before = existsSync(cache) ? statSync(cache).mtimeMs : null;
  const result = await certify(await tempDir(t), run('broken/check_pbx_phones_cached.py', NO_GENERATED));
  const clause = clauseOf(await result.report(), 'PLUGIN-FIGURES-FOLLOW-SERVED');
  assert.equal(clause.verdict, 'pass', JSON.stringify(clause.scenarios[0]?.failure));
  assert.equal(existsSync(cache) ? statSync(cache).mtimeMs : null, before, 'the host /var/tmp took a write');
});

test('a plug-in inventing zeros when the PBX is down fails (PLUGIN-FIGURES-FOLLOW-SERVED)', async (t) => {
  const result = await certify(
    await tempDir(t),
    run('broken/check_pbx_phones_invents_zeros.py', NO_GENERATED),
  );
  assert.equal(result.code, 1, result.out);
  const clause = clauseOf(await result.report(), 'PLUGIN-FIGURES-FOLLOW-SERVED');
  assert.equal(clause.verdict, 'fail');
  assert.match(clause.scenarios[0]?.failure?.message ?? '', /where the PBX served nothing/);
});

test('with only plugin and watches, a plug-in reading phones online from the wrong key fails', async (t) => {
  const result = await certify(
    await tempDir(t),
    run('broken/check_pbx_phones_wrong_key.py', [
      ...NO_GENERATED,
      '--expectations',
      join(EXAMPLES, 'check_pbx_phones.yaml'),
    ]),
  );
  assert.equal(result.code, 1, result.out);
  assert.equal(clauseOf(await result.report(), 'PLUGIN-STATE-AGREES-WITH-PBX').verdict, 'fail');
});

test('the correct phones and channels plug-ins pass: no must clause fails', async (t) => {
  for (const [file, extra] of [
    ['check_pbx_phones.py', ['--expectations', join(EXAMPLES, 'check_pbx_phones.yaml')]],
    ['check_pbx_channels.py', []],
  ] as const) {
    const result = await certify(await tempDir(t), run(file, [...extra]));
    const report = await result.report();
    const failed = report.interfaces[0]?.clauses.filter((c) => c.verdict === 'fail').map((c) => c.id);
    assert.deepEqual(failed, [], `${file}: ${result.out}`);
    assert.equal(result.code, 0, result.out);
  }
});
