import { CERTIFICATE_LEVELS, type CertificateLevel } from './certification-predicate.ts';
import { openEnvelope, signedBy } from './envelope.ts';
import { sha256Hex } from './plugin-subjects.ts';
import { readStatement } from './read-statement.ts';
import type { VerifyKey } from './signing-key.ts';
import type { CertificationStatement } from './statement.ts';

export interface VerifyCertificateInput {
  /** The certificate file's bytes: a DSSE JSON envelope. */
  certificate: Buffer;
  /** Files that must be subjects of the certificate (`--plugin`), by the label to name them with. */
  files: { label: string; bytes: Buffer }[];
  /** The public key the certificate must be signed with; null: the signature is not checked. */
  key: VerifyKey | null;
  /** Accept a certificate whose signature is not checked (unsigned, or no key given). */
  allowUnsigned: boolean;
  /** The least level the certificate must state (`--require-level`). */
  requireLevel: CertificateLevel | null;
  /** The catalog fingerprints this version knows. */
  knownCatalogs: readonly string[];
}

/** What `certificate verify` concluded: it holds, or it does not, with every reason. */
export type Verification =
  | { holds: true; statement: CertificationStatement; signature: 'checked' | 'unsigned' | 'not checked' }
  | { holds: false; reasons: string[] };

/**
 * Checks a certificate: the envelope (DSSE envelope v1.0.2 parsing rules), the signature
 * (DSSE protocol v1.0.2, "To verify": Ed25519 over the PAE, by the key's id), the payload type and
 * the Statement (in-toto attestation v1), then what it states: a passed certification (recomputed
 * from the verdicts, not only read), a catalog this version knows, each given file among the
 * subjects by SHA-256, and the required level. Every reason is collected once the signature holds;
 * before that nothing the payload says is trusted.
 */
export function verifyCertificate(input: VerifyCertificateInput): Verification {
  const read = openEnvelope(input.certificate);
  if (!read.ok) return { holds: false, reasons: [read.reason] };
  const { envelope } = read;
  let signature: 'checked' | 'unsigned' | 'not checked';
  if (input.key) {
    if (envelope.signatures.length === 0)
      return {
        holds: false,
        reasons: ['the certificate is unsigned: nothing proves it was made with the given key'],
      };
    if (!signedBy(envelope, input.key)) {
      const named = envelope.signatures.map((s) => s.keyid || '(none)');
      return {
        holds: false,
        reasons: [
          named.includes(input.key.keyId)
            ? `the signature does not verify with the given key ${short(input.key.keyId)}: the certificate was changed after it was signed`
            : `the certificate is not signed with the given key ${short(input.key.keyId)} (it names key ${named.map(short).join(', ')})`,
        ],
      };
    }
    signature = 'checked';
  } else if (envelope.signatures.length === 0) {
    if (!input.allowUnsigned)
      return {
        holds: false,
        reasons: [
          'the certificate is unsigned: nothing proves who made it (--allow-unsigned accepts it anyway)',
        ],
      };
    signature = 'unsigned';
  } else {
    if (!input.allowUnsigned)
      return {
        holds: false,
        reasons: ["no --key given: the signature cannot be checked (give the signer's public key)"],
      };
    signature = 'not checked';
  }
  const parsed = readStatement(envelope.payloadType, envelope.body);
  if (!parsed.ok) return { holds: false, reasons: [parsed.reason] };
  const { statement } = parsed;
  const { predicate } = statement;
  const reasons: string[] = [];
  if (predicate.result !== 'passed') reasons.push(`the certification ${predicate.result}`);
  const failed = predicate.clauses.filter((c) => c.verdict === 'fail');
  if (failed.length > 0)
    reasons.push(
      `the certificate says ${predicate.result}, but its verdicts fail ${failed.map((c) => c.id).join(', ')}`,
    );
  const unset = predicate.runs.filter((r) => r.outcome === 'not-verifiable');
  if (unset.length > 0)
    reasons.push(
      `the harness could not set up ${unset.length} run(s): ${unset.map((r) => r.name).join(', ')}`,
    );
  if (!input.knownCatalogs.includes(predicate.catalog.fingerprint))
    reasons.push(
      `it was judged by catalog ${predicate.catalog.fingerprint}, which this version does not know (it knows ${input.knownCatalogs.join(', ')})`,
    );
  const digests = new Set(statement.subject.map((s) => s.digest.sha256));
  for (const file of input.files) {
    const digest = sha256Hex(file.bytes);
    if (!digests.has(digest))
      reasons.push(
        `${file.label} is not a certified file: its SHA-256 ${digest.slice(0, 16)}… is no subject of the certificate (${statement.subject.map((s) => s.name).join(', ')})`,
      );
  }
  if (input.requireLevel !== null) {
    const level = predicate.level;
    if ('absent' in level)
      reasons.push(
        `level ${input.requireLevel} is required; the certificate states no level (${level.absent})`,
      );
    else if (CERTIFICATE_LEVELS.indexOf(level.value) < CERTIFICATE_LEVELS.indexOf(input.requireLevel))
      reasons.push(`level ${input.requireLevel} is required; the certificate is for level ${level.value}`);
  }
  return reasons.length > 0 ? { holds: false, reasons } : { holds: true, statement, signature };
}

/** A key id as shown: its first 16 hex digits. */
export function short(keyId: string): string {
  return keyId.length > 16 ? `${keyId.slice(0, 16)}…` : keyId;
}
