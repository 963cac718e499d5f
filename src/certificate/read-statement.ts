import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { compileSchemaFile } from '../core/compile-schema.ts';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import {
  type CertificationStatement,
  IN_TOTO_PAYLOAD_TYPE,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
} from './statement.ts';

/** The published JSON Schema of the predicate. */
export const PREDICATE_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'plugin-certification.schema.json');

let validatePredicate: ValidateFunction | null = null;

export type StatementReading =
  | { ok: true; statement: CertificationStatement }
  | { ok: false; reason: string };

/**
 * Parses a DSSE payload as this project's in-toto Statement v1 (in-toto attestation spec v1,
 * statement.md: `_type`, `subject` with a `digest` each, `predicateType`, `predicate`), the
 * predicate held to schemas/plugin-certification.schema.json. The bytes are the ones that were
 * verified (DSSE protocol v1.0.2: never re-parse the envelope after verification).
 */
export function readStatement(payloadType: string, body: Buffer): StatementReading {
  if (payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return {
      ok: false,
      reason: `the payload type is ${JSON.stringify(payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}`,
    };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { ok: false, reason: 'the payload is not a JSON in-toto Statement' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'the payload is not a JSON object' };
  const statement = value as Record<string, unknown>;
  if (statement['_type'] !== STATEMENT_TYPE)
    return { ok: false, reason: `the statement's _type is not ${STATEMENT_TYPE}` };
  if (statement['predicateType'] !== PREDICATE_TYPE)
    return {
      ok: false,
      reason: `the predicate type is ${JSON.stringify(statement['predicateType'])}, not this tool's ${PREDICATE_TYPE}`,
    };
  const subject = statement['subject'];
  if (!Array.isArray(subject) || subject.length === 0)
    return { ok: false, reason: 'the statement names no subject' };
  for (const [index, entry] of subject.entries()) {
    const digest = (entry as { digest?: { sha256?: unknown } } | null)?.digest?.sha256;
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest))
      return { ok: false, reason: `subject ${index + 1} has no name and SHA-256 digest` };
  }
  validatePredicate ??= compileSchemaFile(PREDICATE_SCHEMA_PATH);
  if (!validatePredicate(statement['predicate'])) {
    const first = validatePredicate.errors?.[0];
    return {
      ok: false,
      reason:
        `the predicate does not match schemas/plugin-certification.schema.json: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim(),
    };
  }
  return { ok: true, statement: value as CertificationStatement };
}
