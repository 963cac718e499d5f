import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEnvelope } from '../../src/certificate/envelope.ts';
import { preAuthEncoding } from '../../src/certificate/pae.ts';
import { verifyCertificate } from '../../src/certificate/verify-certificate.ts';
import { versionInfo } from '../../src/core/tool-version.ts';
import { tempDir } from '../certify/support.ts';
import { certificateOf, freshKey, PLUGIN, passedPredicate } from '../src/certificate/sample-certificate.ts';
import { dssePython, NO_PYTHON_CRYPTOGRAPHY } from './python-cryptography.ts';

/*
 * Issue 33, interoperability: a certificate's DSSE signature checked by an implementation that
 * shares no code with this tool (Python's `cryptography`, test/interop/dsse_ed25519.py), over PAE
 * bytes it builds itself from the DSSE protocol v1.0.2; and an envelope it signs, checked here.
 */

async function keyFiles(dir: string) {
  const vendor = freshKey();
  await writeFile(join(dir, 'key.pem'), vendor.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, 'pub.pem'), vendor.publicKey.export({ type: 'spki', format: 'pem' }));
  return vendor;
}

test('Python builds the same PAE bytes and verifies the Ed25519 signature of a certificate', {
  skip: NO_PYTHON_CRYPTOGRAPHY,
}, async (t) => {
  const dir = await tempDir(t);
  const vendor = await keyFiles(dir);
  const certificate = certificateOf(await passedPredicate(), vendor);
  await writeFile(join(dir, 'cert.json'), certificate);
  const answer = await dssePython(['verify', join(dir, 'cert.json'), join(dir, 'pub.pem')]);
  const opened = openEnvelope(certificate);
  assert.ok(opened.ok);
  const pae = preAuthEncoding(opened.envelope.payloadType, opened.envelope.body);
  assert.equal(answer['pae_sha256'], createHash('sha256').update(pae).digest('hex'));
  assert.equal(answer['keyid'], vendor.keyId, 'the same KEYID from the same public key');
  assert.equal(answer['verified'], true);
  const statement = answer['statement'] as { subject: { digest: { sha256: string } }[] };
  assert.equal(statement.subject[0]?.digest.sha256, createHash('sha256').update(PLUGIN).digest('hex'));

  const tampered = Buffer.from(certificate);
  const at = certificate.indexOf('"payload":"') + 40;
  tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
  await writeFile(join(dir, 'tampered.json'), tampered);
  const refused = await dssePython(['verify', join(dir, 'tampered.json'), join(dir, 'pub.pem')]);
  assert.equal(refused['verified'], false, 'Python refuses a changed payload too');
});

test('an envelope Python signs with the vendor key is accepted by certificate verify', {
  skip: NO_PYTHON_CRYPTOGRAPHY,
}, async (t) => {
  const dir = await tempDir(t);
  const vendor = await keyFiles(dir);
  const ours = openEnvelope(certificateOf(await passedPredicate(), null));
  assert.ok(ours.ok);
  await writeFile(join(dir, 'statement.json'), ours.envelope.body);
  const envelope = await dssePython(['sign', join(dir, 'statement.json'), join(dir, 'key.pem')]);
  await writeFile(join(dir, 'python-signed.json'), JSON.stringify(envelope, null, 1));
  const check = (bytes: Buffer) =>
    verifyCertificate({
      certificate: bytes,
      files: [{ label: 'check_backups.sh', bytes: PLUGIN }],
      key: vendor,
      allowUnsigned: false,
      requireLevel: null,
      knownCatalogs: [versionInfo().catalog.fingerprint],
    });
  const accepted = check(await readFile(join(dir, 'python-signed.json')));
  assert.equal(accepted.holds, true, accepted.holds ? '' : accepted.reasons.join('; '));
  const other = freshKey();
  assert.equal(
    verifyCertificate({
      certificate: await readFile(join(dir, 'python-signed.json')),
      files: [],
      key: other,
      allowUnsigned: false,
      requireLevel: null,
      knownCatalogs: [versionInfo().catalog.fingerprint],
    }).holds,
    false,
    'and refused with another key',
  );
});
