import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { scenarioCatalog } from '../../src/certify/scenario-catalog.ts';
import { certify, clauseOf, EXAMPLES, tempDir, verdictOf } from './support.ts';

/*
 * The project's own example plug-in and its two broken copies under certify-plugin
 * (issue 10 section 3; docs/certify-plugin.md).
 */

const EXPECTATIONS = join(EXAMPLES, 'check_pbx_backups.yaml');
const plugin = (file: string) => ['--', join(EXAMPLES, file), '-H', '{host}', '-p', '{port}'];

test('the example plug-in certifies on the whole catalog and the three reports are written', async (t) => {
  const scenarios = scenarioCatalog().length;
  const dir = await tempDir(t);
  const result = await certify(dir, [
    '--expectations',
    EXPECTATIONS,
    '--reports',
    'out',
    ...plugin('check_pbx_backups.py'),
  ]);
  const report = await result.report();
  const healthy = verdictOf(report, 'healthy');
  const failures = report.interfaces.flatMap((i) => i.clauses).filter((c) => c.verdict === 'fail');
  assert.deepEqual(
    failures.map((c) => `${c.id}: ${c.scenarios[0]?.failure?.message ?? c.reason}`),
    [],
  );
  assert.equal(result.code, 0, result.out + result.err);
  const served = await readFile(join(dir, 'out', 'served', 'healthy.txt'), 'utf8');
  assert.match(served, /^total_accounts \d+\/0$/m, 'the served text is in the field line shapes');
  assert.equal(healthy.run?.details?.['state'], 'OK');
  // One verdict per PLUGIN clause of the catalog; every catalog scenario's run beneath them.
  assert.equal(report.interfaces[0]?.id, 'PLUGIN');
  assert.equal(report.interfaces[0]?.clauses.length, 23);
  // Every label declared in `measures`: the certificate says `values`, and what it covered.
  assert.equal(report.certification?.level, 'values');
  assert.deepEqual(report.certification?.coverage, {
    declared: 4,
    tracked: 0,
    notTraced: 0,
    watched: report.certification?.coverage.watched,
    labels: 4,
  });
  assert.ok((report.certification?.coverage.watched ?? 0) >= 2);
  assert.deepEqual(report.certification?.notCertified, []);
  assert.match(result.out, /^level: values \(coverage: 4 of 4 labels declared/m);
  assert.equal(report.metadata.command, 'certify-plugin');
  const runs = report.interfaces[0]?.clauses.find((c) => c.id === 'PLUGIN-EXIT-CODE')?.scenarios ?? [];
  assert.ok(runs.length >= scenarios, `${runs.length} runs for ${scenarios} scenarios`);
  for (const name of ['compatibility.json', 'compatibility.html', 'junit.xml']) {
    const text = await readFile(join(dir, 'out', name), 'utf8');
    assert.ok(text.includes('PLUGIN-FIGURES-FOLLOW-SERVED'), name);
  }
  const junit = await readFile(join(dir, 'out', 'junit.xml'), 'utf8');
  assert.match(junit, /tests="23"/);
  assert.match(junit, /<property name="certification.level" value="values"/);
  assert.match(await readFile(join(dir, 'out', 'compatibility.html'), 'utf8'), /Level: values/);
  const down = verdictOf(report, 'endpoint-down');
  assert.equal(down.served?.response, '(connection refused)');
  assert.match(String(down.run?.response), /Connection refused/);
  assert.equal(verdictOf(report, 'host-unlisted').served?.response, '(closed without a byte)');
  assert.match(String(verdictOf(report, 'render-error').served?.response), /^ERROR: /);
  assert.match(String(verdictOf(report, 'extension').served?.response), /zz_guest_policy open/);
  assert.match(String(verdictOf(report, 'non-ascii-names').served?.response), /Überwachung/);
});

test('the copy that crashes on an extra line fails certification with evidence', async (t) => {
  const dir = await tempDir(t);
  const result = await certify(dir, [
    '--expectations',
    EXPECTATIONS,
    '--scenario',
    'extension',
    '--scenario',
    'backup-failed',
    '--runs',
    '0',
    '--reports',
    'out',
    ...plugin('broken/check_pbx_backups_crash_on_extra_line.py'),
  ]);
  assert.equal(result.code, 1);
  const report = await result.report();
  // The extension scenario brings its plain twin along.
  assert.deepEqual(
    report.interfaces[0]?.clauses
      .find((c) => c.id === 'PLUGIN-EXIT-CODE')
      ?.scenarios.map((s) => s.name)
      .filter((name) => !name.startsWith('-') && !name.startsWith('held') && !name.includes('LC_ALL'))
      .sort(),
    ['backup-failed', 'extension', 'healthy'],
  );
  const extension = verdictOf(report, 'extension');
  assert.equal(extension.verdict, 'fail');
  assert.match(extension.failure, /PLUGIN-NO-CRASH: a Python traceback in its output/);
  assert.match(extension.failure, /differs from the plain twin healthy/);
  assert.match(String(extension.run?.details?.['stderr']), /ValueError/);
  assert.match(String(extension.served?.response), /zz_guest_policy open/);
  assert.equal(verdictOf(report, 'backup-failed').verdict, 'pass');
  assert.match(result.out, /broke\s+extension/);
});

test('the copy that misses a failed backup fails certification with evidence', async (t) => {
  const dir = await tempDir(t);
  const result = await certify(dir, [
    '--expectations',
    EXPECTATIONS,
    '--scenario',
    'backup-failed',
    '--runs',
    '0',
    '--reports',
    'out',
    ...plugin('broken/check_pbx_backups_misses_failure.py'),
  ]);
  assert.equal(result.code, 1);
  const failed = verdictOf(await result.report(), 'backup-failed');
  assert.equal(failed.verdict, 'fail');
  assert.match(failed.failure, /state OK, the vendor's expectation is CRITICAL/);
  assert.equal(failed.run?.details?.['exitCode'], 0);
  assert.match(
    String(failed.served?.response),
    /\[SMB\]192\.0\.2\.6:\/Backup \d+ de\.vendor\.backup\.mountfail/,
  );
});

for (const name of ['check_pbx_phones', 'check_pbx_channels']) {
  test(`${name} with its thresholds option and full declaration reaches level values with no failure`, async (t) => {
    const dir = await tempDir(t);
    const result = await certify(dir, [
      '--expectations',
      join(EXAMPLES, `${name}.yaml`),
      '--runs',
      '4',
      '--require-level',
      'values',
      '--reports',
      'out',
      '--',
      join(EXAMPLES, `${name}.py`),
      '-H',
      '{host}',
      '-p',
      '{port}',
      '-t',
      '{timeout}',
    ]);
    const report = await result.report();
    const failures = report.interfaces.flatMap((i) => i.clauses).filter((c) => c.verdict === 'fail');
    assert.deepEqual(
      failures.map((c) => `${c.id}: ${c.scenarios[0]?.failure?.message ?? c.reason}`),
      [],
    );
    assert.equal(result.code, 0, result.out + result.err);
    assert.equal(report.certification?.level, 'values');
    // The own-thresholds rule had a subject: the ranges the plug-in prints and judges on.
    const thresholds = clauseOf(report, 'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS');
    assert.equal(thresholds.verdict, 'pass');
    const declared = clauseOf(report, 'PLUGIN-FIGURES-AS-DECLARED');
    assert.equal(declared.verdict, 'pass');
    assert.ok(declared.scenarios.some((s) => s.name === 'generated #4'));
  });
}
