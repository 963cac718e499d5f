import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { certificateOf, freshKey, PLUGIN, passedPredicate } from '../certificate/sample-certificate.ts';
import { captureIo } from './capture-io.ts';

/* `certificate verify` exits 0, 1 or 2; `certificate show` says what it states (issue 33). */

async function folder(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'certificate-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const vendor = freshKey();
  await writeFile(join(dir, 'pub.pem'), vendor.publicKey.export({ type: 'spki', format: 'pem' }));
  await writeFile(join(dir, 'other.pem'), freshKey().publicKey.export({ type: 'spki', format: 'pem' }));
  await writeFile(
    join(dir, 'rsa.pem'),
    (await import('node:crypto'))
      .generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' }),
  );
  await writeFile(join(dir, 'check_backups.sh'), PLUGIN);
  await writeFile(join(dir, 'cert.json'), certificateOf(await passedPredicate(), vendor));
  return dir;
}

async function cli(cwd: string, ...args: string[]) {
  const io = captureIo(cwd);
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err() };
}

test('certificate verify exits 0 for the certified file and the signer key', async (t) => {
  const dir = await folder(t);
  const result = await cli(
    dir,
    'certificate',
    'verify',
    'cert.json',
    '--plugin',
    'check_backups.sh',
    '--key',
    'pub.pem',
  );
  assert.equal(result.code, 0, result.out + result.err);
  assert.match(
    result.out,
    /^certificate verify cert\.json: holds\n {2}check_backups: certification passed, no level stated, catalog sha256:[0-9a-f]{12}, signed with key [0-9a-f]{16}…\n {2}certified: check_backups\.sh\n$/,
  );
});

test('certificate verify exits 1 with the reason for another key or a changed file', async (t) => {
  const dir = await folder(t);
  const other = await cli(dir, 'certificate', 'verify', 'cert.json', '--key', 'other.pem');
  assert.equal(other.code, 1);
  assert.match(other.out, /does not hold\n {2}- the certificate is not signed with the given key/);
  await writeFile(join(dir, 'check_backups.sh'), Buffer.concat([PLUGIN, Buffer.from('\n')]));
  const changed = await cli(
    dir,
    'certificate',
    'verify',
    'cert.json',
    '--plugin',
    'check_backups.sh',
    '--key',
    'pub.pem',
  );
  assert.equal(changed.code, 1);
  assert.match(changed.out, /- check_backups\.sh is not a certified file/);
  assert.equal(changed.err, '');
});

test('certificate verify exits 2 with one line when an input cannot be read', async (t) => {
  const dir = await folder(t);
  for (const [args, reason] of [
    [
      ['missing.json', '--key', 'pub.pem'],
      /^pbx-conformance: certificate missing\.json cannot be read \(not found\)\n$/,
    ],
    [
      ['cert.json', '--key', 'nokey.pem'],
      /^pbx-conformance: --key nokey\.pem cannot be read \(not found\)\n$/,
    ],
    [
      ['cert.json', '--key', 'rsa.pem'],
      /^pbx-conformance: --key rsa\.pem is a rsa key; certificates use Ed25519\n$/,
    ],
    [['cert.json', '--key', 'cert.json'], /^pbx-conformance: --key cert\.json is not a PEM public key/],
    [
      ['cert.json', '--plugin', 'gone.sh', '--key', 'pub.pem'],
      /^pbx-conformance: --plugin gone\.sh cannot be read \(not found\)\n$/,
    ],
    [
      ['cert.json', '--require-level', 'gold'],
      /^pbx-conformance: option '--require-level <level>' argument 'gold' is invalid/,
    ],
  ] as const) {
    const result = await cli(dir, 'certificate', 'verify', ...args);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.err, reason);
    assert.doesNotMatch(result.err, /\n\s+at /, 'no stack trace');
  }
});

test('certificate show says in plain words what the certificate states', async (t) => {
  const dir = await folder(t);
  const result = await cli(dir, 'certificate', 'show', 'cert.json');
  assert.equal(result.code, 0, result.err);
  assert.match(
    result.out,
    /^Certificate of check_backups, a check plug-in command: \.\/check_backups\.sh \{host\} \{port\}\n/,
  );
  assert.match(result.out, /Signed with Ed25519 key [0-9a-f]{16}… \(not checked here/);
  assert.match(result.out, /check_backups\.sh {2}[0-9a-f]{64}\n/);
  const judged = (await passedPredicate()).clauses.length;
  assert.match(result.out, new RegExp(`Clauses: ${judged} judged \\(${judged} passed\\)`));
  assert.match(result.out, /generated states drawn with seed 19/);
  assert.match(result.out, /\(the catalog of this version\)/);
  await writeFile(join(dir, 'broken.json'), '{"payloadType":');
  const broken = await cli(dir, 'certificate', 'show', 'broken.json');
  assert.equal(broken.code, 2);
  assert.match(
    broken.err,
    /^pbx-conformance: certificate broken\.json: not a DSSE envelope: the JSON ends early/,
  );
});
