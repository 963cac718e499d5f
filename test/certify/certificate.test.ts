import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/cli/run.ts';
import { freshKey } from '../src/certificate/sample-certificate.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { certify, EXAMPLES, tempDir } from './support.ts';

/*
 * certify-plugin --certificate (issue 33): a passed certification writes a signed in-toto
 * Statement in a DSSE envelope that certificate verify accepts with the plug-in's file; a failed
 * one writes none; the key and the paths are checked before the first run.
 */

async function keys(dir: string) {
  const vendor = freshKey();
  await writeFile(join(dir, 'key.pem'), vendor.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, 'pub.pem'), vendor.publicKey.export({ type: 'spki', format: 'pem' }));
  return vendor;
}

async function cli(cwd: string, ...args: string[]) {
  const io = captureIo(cwd);
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

test('a passed certification writes a signed certificate and badge that certificate verify accepts', async (t) => {
  const dir = await tempDir(t);
  const vendor = await keys(dir);
  await copyFile(join(EXAMPLES, 'check_pbx_backups.py'), join(dir, 'check_pbx_backups.py'));
  await copyFile(join(EXAMPLES, 'check_pbx_backups.yaml'), join(dir, 'check_pbx_backups.yaml'));
  const result = await certify(dir, [
    '--expectations',
    'check_pbx_backups.yaml',
    '--scenario',
    'healthy',
    '--runs',
    '2',
    '--certificate',
    'out/check_pbx_backups.cert.json',
    '--sign-key',
    'key.pem',
    '--badge',
    'out/badge.svg',
    '--',
    './check_pbx_backups.py',
    '-H',
    '{host}',
    '-p',
    '{port}',
    '-t',
    '{timeout}',
  ]);
  assert.equal(result.code, 0, result.out + result.err);
  assert.match(
    result.out,
    new RegExp(
      `certificate: out/check_pbx_backups\\.cert\\.json \\(1 file\\(s\\), signed with Ed25519 key ${vendor.keyId.slice(0, 16)}…\\)`,
    ),
  );
  assert.match(
    result.out,
    /badge: out\/badge\.svg \(PBX certified \| (?:(?:form|state|values) · )?\d+\/\d+\)/,
  );
  const verified = await cli(
    dir,
    'certificate',
    'verify',
    'out/check_pbx_backups.cert.json',
    '--plugin',
    'check_pbx_backups.py',
    '--key',
    'pub.pem',
  );
  assert.equal(verified.code, 0, verified.out + verified.err);
  const envelope = JSON.parse(await readFile(join(dir, 'out/check_pbx_backups.cert.json'), 'utf8')) as {
    payload: string;
  };
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
  assert.equal(statement.predicate.generated.seed, 19);
  assert.deepEqual(
    statement.predicate.runs
      .filter((r: { kind: string }) => r.kind === 'generated')
      .map((r: { stateSha256?: string }) => /^[0-9a-f]{64}$/.test(r.stateSha256 ?? '')),
    [true, true],
  );
  assert.equal(statement.predicate.expectations.name, 'check_pbx_backups.yaml');
  assert.match(
    await readFile(join(dir, 'out/badge.svg'), 'utf8'),
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*aria-label="PBX certified: (?:(?:form|state|values) · )?\d+\/\d+">/,
  );
});

test('a failed certification writes no certificate and removes the one of an earlier run', async (t) => {
  const dir = await tempDir(t);
  await keys(dir);
  await writeFile(join(dir, 'cert.json'), 'from an earlier run');
  await writeFile(join(dir, 'badge.svg'), 'from an earlier run');
  const result = await certify(dir, [
    '--scenario',
    'extension',
    '--runs',
    '0',
    '--certificate',
    'cert.json',
    '--sign-key',
    'key.pem',
    '--badge',
    'badge.svg',
    '--',
    join(EXAMPLES, 'broken', 'check_pbx_backups_crash_on_extra_line.py'),
    '-H',
    '{host}',
    '-p',
    '{port}',
  ]);
  assert.equal(result.code, 1, result.out + result.err);
  assert.match(
    result.out,
    /certificate: none, the certification did not pass \(removed the earlier cert\.json, badge\.svg\)/,
  );
  assert.equal(existsSync(join(dir, 'cert.json')), false);
  assert.equal(existsSync(join(dir, 'badge.svg')), false);
});

test('a bad --sign-key, a --badge without --certificate and a folder as certificate stop before any run', async (t) => {
  const dir = await tempDir(t);
  await writeFile(
    join(dir, 'rsa.pem'),
    (await import('node:crypto'))
      .generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const plugin = ['--', join(EXAMPLES, 'check_pbx_backups.py'), '-H', '{host}', '-p', '{port}'];
  for (const [args, reason] of [
    [
      ['--certificate', 'c.json', '--sign-key', 'rsa.pem'],
      /--sign-key rsa\.pem is a rsa key; certificates are signed with Ed25519/,
    ],
    [
      ['--certificate', 'c.json', '--sign-key', 'none.pem'],
      /--sign-key none\.pem cannot be read \(not found\)/,
    ],
    [['--badge', 'b.svg'], /--badge shows a certificate: give --certificate FILE with it/],
    [['--sign-key', 'rsa.pem'], /--sign-key signs a certificate: give --certificate FILE/],
    [['--certificate', '.'], /--certificate \. is a folder/],
  ] as const) {
    const result = await certify(dir, [...args, ...plugin]);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.err, reason);
    assert.equal(result.out, '', 'no run started');
  }
});
