import type { CertificationPredicate } from './certification-predicate.ts';

/** The Statement's `_type` (in-toto attestation spec v1, statement.md). */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/**
 * The DSSE payload type of an in-toto Statement in JSON (in-toto attestation spec v1,
 * envelope.md: `application/vnd.in-toto+json`), what `cosign attest` writes too.
 */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/**
 * This project's predicate type (in-toto statement.md: `predicateType`, a TypeURI). Its JSON
 * Schema is schemas/plugin-certification.schema.json, whose `$id` this is not: the URI names the
 * predicate's meaning and version, the schema describes its shape.
 */
export const PREDICATE_TYPE = 'https://pbx-conformance.local/attestation/plugin-certification/v1';

/** One certified file: a ResourceDescriptor with `name` and a `sha256` DigestSet (in-toto v1). */
export interface Subject {
  name: string;
  digest: { sha256: string };
}

/** An in-toto Statement v1 about certified plug-in files. */
export interface CertificationStatement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: CertificationPredicate;
}

/** The Statement (in-toto attestation spec v1, statement.md), serialized as the DSSE payload's bytes. */
export function statementBody(subject: Subject[], predicate: CertificationPredicate): Buffer {
  const statement: CertificationStatement = {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: PREDICATE_TYPE,
    predicate,
  };
  return Buffer.from(JSON.stringify(statement), 'utf8');
}
