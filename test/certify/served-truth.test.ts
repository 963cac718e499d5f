import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { certify, clauseOf, EXAMPLES, tempDir } from './support.ts';

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

test('a plug-in caching in a fixed folder fails (PLUGIN-FIGURES-FOLLOW-SERVED)', async (t) => {
  const dir = await tempDir(t);
  const env = { ...process.env, PBX_PLUGIN_CACHE_DIR: join(dir, 'fixed-cache') };
  const result = await certify(dir, run('broken/check_pbx_phones_cached.py'), env);
  assert.equal(result.code, 1, result.out);
  const clause = clauseOf(await result.report(), 'PLUGIN-FIGURES-FOLLOW-SERVED');
  assert.equal(clause.verdict, 'fail');
  assert.match(clause.scenarios[0]?.failure?.message ?? '', /printed .* where the PBX served/);
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
