import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { CertificationPredicate } from '../../../src/certificate/certification-predicate.ts';
import {
  type VerifyCertificateInput,
  verifyCertificate,
} from '../../../src/certificate/verify-certificate.ts';
import { versionInfo } from '../../../src/core/tool-version.ts';
import { certificateOf, editPayload, freshKey, PLUGIN, passedPredicate } from './sample-certificate.ts';

/*
 * Issue 33, "Tampering": each change is refused by verify with its reason, and random byte
 * mutations of a signed certificate are never accepted. DSSE protocol v1.0.2 ("To verify") and
 * in-toto attestation v1 (statement.md).
 */

const vendor = freshKey();

function check(certificate: Buffer, change: Partial<VerifyCertificateInput> = {}) {
  return verifyCertificate({
    certificate,
    files: [{ label: 'check_backups.sh', bytes: PLUGIN }],
    key: vendor,
    allowUnsigned: false,
    requireLevel: null,
    knownCatalogs: [versionInfo().catalog.fingerprint],
    ...change,
  });
}

function reasons(verification: ReturnType<typeof check>): string {
  assert.equal(verification.holds, false, 'the certificate was accepted');
  return verification.holds ? '' : verification.reasons.join('\n');
}

test('a signed certificate holds with its key and the certified file', async () => {
  const verification = check(certificateOf(await passedPredicate(), vendor));
  assert.equal(verification.holds, true, verification.holds ? '' : verification.reasons.join('; '));
  assert.equal(verification.holds && verification.signature, 'checked');
  assert.equal(verification.holds && verification.statement.subject[0]?.name, 'check_backups.sh');
});

test('a plug-in with one byte changed is refused: it is not a certified file', async () => {
  const changed = Buffer.from(PLUGIN);
  changed[20] = (changed[20] ?? 0) ^ 1;
  const verification = check(certificateOf(await passedPredicate(), vendor), {
    files: [{ label: 'check_backups.sh', bytes: changed }],
  });
  assert.match(
    reasons(verification),
    /^check_backups\.sh is not a certified file: its SHA-256 [0-9a-f]{16}… is no subject/,
  );
});

test('a verdict changed in the predicate is refused: the signature no longer verifies', async () => {
  const predicate = await passedPredicate();
  const warned = predicate.clauses.findIndex((c) => c.level === 'should');
  predicate.clauses[warned] = {
    ...(predicate.clauses[warned] as CertificationPredicate['clauses'][0]),
    verdict: 'warn',
  };
  const edited = editPayload(certificateOf(predicate, vendor), (statement) => {
    const clauses = (statement['predicate'] as CertificationPredicate).clauses;
    (clauses[warned] as { verdict: string }).verdict = 'pass';
  });
  assert.match(
    reasons(check(edited)),
    /signature does not verify with the given key .*changed after it was signed/,
  );
});

test('a certificate signed with another key is refused, naming both keys', async () => {
  const stranger = freshKey();
  const verification = check(certificateOf(await passedPredicate(), stranger));
  assert.match(
    reasons(verification),
    new RegExp(
      `not signed with the given key ${vendor.keyId.slice(0, 16)}… \\(it names key ${stranger.keyId.slice(0, 16)}…\\)`,
    ),
  );
});

test('a failed certification is refused, and edited to say passed it no longer verifies', async () => {
  const base = await passedPredicate();
  const failed = await passedPredicate({
    result: 'failed',
    clauses: base.clauses.map((c) => (c.id === 'PLUGIN-EXIT-CODE' ? { ...c, verdict: 'fail' as const } : c)),
  });
  const certificate = certificateOf(failed, vendor);
  assert.match(
    reasons(check(certificate)),
    /^the certification failed\nthe certificate says failed, but its verdicts fail PLUGIN-EXIT-CODE$/,
  );
  const edited = editPayload(certificate, (statement) => {
    const predicate = statement['predicate'] as CertificationPredicate;
    predicate.result = 'passed';
    for (const c of predicate.clauses) c.verdict = 'pass';
  });
  assert.match(reasons(check(edited)), /changed after it was signed/);
  // Signed as it stands by someone with the key, a "passed" over failing verdicts is still refused.
  const inconsistent = certificateOf({ ...failed, result: 'passed' }, vendor);
  assert.match(reasons(check(inconsistent)), /says passed, but its verdicts fail PLUGIN-EXIT-CODE/);
});

test('a truncated envelope is refused as not a DSSE envelope', async () => {
  const certificate = certificateOf(await passedPredicate(), vendor);
  for (const length of [certificate.length - 1, Math.floor(certificate.length / 2), 10, 0]) {
    const text = reasons(check(certificate.subarray(0, length)));
    assert.match(
      text,
      /^not a DSSE envelope: (the JSON ends early \(truncated\?\)|not JSON)/,
      `${length} bytes`,
    );
  }
});

test('an unsigned certificate is refused unless --allow-unsigned, and so is a signed one without a key', async () => {
  const unsigned = certificateOf(await passedPredicate(), null);
  assert.match(reasons(check(unsigned)), /unsigned: nothing proves it was made with the given key/);
  assert.match(reasons(check(unsigned, { key: null })), /unsigned: nothing proves who made it/);
  const accepted = check(unsigned, { key: null, allowUnsigned: true });
  assert.equal(accepted.holds && accepted.signature, 'unsigned');
  const signed = certificateOf(await passedPredicate(), vendor);
  assert.match(reasons(check(signed, { key: null })), /no --key given: the signature cannot be checked/);
  const unchecked = check(signed, { key: null, allowUnsigned: true });
  assert.equal(unchecked.holds && unchecked.signature, 'not checked');
});

test('a signature whose key id was removed is not tried (DSSE: keys narrowed by KEYID)', async () => {
  const certificate = certificateOf(await passedPredicate(), vendor);
  const envelope = JSON.parse(certificate.toString('utf8')) as { signatures: { keyid?: string }[] };
  for (const s of envelope.signatures) delete s.keyid;
  assert.match(reasons(check(Buffer.from(JSON.stringify(envelope)))), /it names key \(none\)/);
});

test('--require-level holds at or below the stated level, and not when none is stated', async () => {
  const atState = certificateOf(await passedPredicate({ level: { value: 'state' } }), vendor);
  assert.equal(check(atState, { requireLevel: 'form' }).holds, true);
  assert.equal(check(atState, { requireLevel: 'state' }).holds, true);
  assert.match(
    reasons(check(atState, { requireLevel: 'values' })),
    /level values is required; the certificate is for level state/,
  );
  const none = certificateOf(await passedPredicate(), vendor);
  assert.match(reasons(check(none, { requireLevel: 'form' })), /states no level \(not graded in this test\)/);
});

test('a catalog this version does not know is refused', async () => {
  const other = certificateOf(
    await passedPredicate({ catalog: { format: 1, fingerprint: 'sha256:000000000000' } }),
    vendor,
  );
  assert.match(
    reasons(check(other)),
    /judged by catalog sha256:000000000000, which this version does not know/,
  );
});

test('another payload type or predicate type is refused after the signature', async () => {
  const certificate = certificateOf(await passedPredicate(), vendor);
  const statement = editPayload(certificate, (s) => {
    s['predicateType'] = 'https://slsa.dev/provenance/v1';
  });
  assert.match(
    reasons(check(statement, { key: null, allowUnsigned: true })),
    /predicate type is "https:\/\/slsa.dev\/provenance\/v1"/,
  );
});

test('1,000 random byte mutations of a signed certificate give 0 accepted certificates', async () => {
  const certificate = certificateOf(await passedPredicate(), vendor);
  assert.equal(check(certificate).holds, true);
  let accepted = 0;
  fc.assert(
    fc.property(fc.nat(certificate.length - 1), fc.integer({ min: 1, max: 255 }), (at, delta) => {
      const mutated = Buffer.from(certificate);
      mutated[at] = ((mutated[at] ?? 0) + delta) & 0xff;
      const verification = check(mutated);
      if (verification.holds) accepted += 1;
      return !verification.holds;
    }),
    { numRuns: 1000, seed: 33 },
  );
  assert.equal(accepted, 0);
});

test('a predicate with level, coverage and sandbox holds; one outside the published schema is refused', async () => {
  const stated = await passedPredicate({
    level: { value: 'values' },
    coverage: { value: { declared: 2, tracked: 0, notTraced: 0, watched: 1, labels: 2 } },
    sandbox: {
      value: {
        sealed: true,
        tool: 'bubblewrap 0.8.0',
        protections: [{ name: 'pid-namespace', present: true }],
      },
    },
  });
  const verification = check(certificateOf(stated, vendor), { requireLevel: 'values' });
  assert.equal(verification.holds, true, verification.holds ? '' : verification.reasons.join('; '));
  const wrong = { ...stated, sandbox: { value: { sealed: 'yes', tool: null, protections: [] } } };
  assert.match(
    reasons(check(certificateOf(wrong as never, vendor))),
    /the predicate does not match schemas\/plugin-certification\.schema\.json: \/sandbox/,
  );
});
