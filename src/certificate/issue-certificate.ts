import type { CertificationPredicate } from './certification-predicate.ts';
import { sealEnvelope, serializeEnvelope } from './envelope.ts';
import type { SigningKey } from './signing-key.ts';
import { IN_TOTO_PAYLOAD_TYPE, type Subject, statementBody } from './statement.ts';

/**
 * A certificate: the in-toto Statement v1 about `subject` with `predicate`, in a DSSE JSON
 * envelope signed with `key` (Ed25519 over the PAE), or unsigned when `key` is null. Returns the
 * file's text.
 */
export function issueCertificate(
  subject: Subject[],
  predicate: CertificationPredicate,
  key: SigningKey | null,
): string {
  return serializeEnvelope(sealEnvelope(IN_TOTO_PAYLOAD_TYPE, statementBody(subject, predicate), key));
}
