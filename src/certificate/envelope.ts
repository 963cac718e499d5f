import { sign, verify } from 'node:crypto';
import { preAuthEncoding } from './pae.ts';
import type { SigningKey, VerifyKey } from './signing-key.ts';
import { decodeStrictBase64 } from './strict-base64.ts';

/**
 * The DSSE JSON envelope (DSSE envelope v1.0.2, "Standard JSON envelope"). `signatures` is empty
 * for an unsigned certificate: the field is required "even if empty".
 */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid?: string; sig: string }[];
}

/** An envelope read and decoded, its signatures not yet checked. */
export interface OpenedEnvelope {
  payloadType: string;
  /** SERIALIZED_BODY: the payload's bytes, the ones that are verified and then parsed. */
  body: Buffer;
  signatures: { keyid: string; sig: Buffer }[];
}

export type EnvelopeReading = { ok: true; envelope: OpenedEnvelope } | { ok: false; reason: string };

/**
 * Signs `body` as DSSE protocol v1.0.2 says ("To sign"): Ed25519 over
 * PAE(UTF8(PAYLOAD_TYPE), SERIALIZED_BODY), with the key id as KEYID. `key` null: unsigned (no
 * signature at all, which `certificate verify` reports as such).
 */
export function sealEnvelope(payloadType: string, body: Buffer, key: SigningKey | null): DsseEnvelope {
  const signatures = key
    ? [
        {
          keyid: key.keyId,
          sig: sign(null, preAuthEncoding(payloadType, body), key.privateKey).toString('base64'),
        },
      ]
    : [];
  return { payloadType, payload: body.toString('base64'), signatures };
}

/**
 * The envelope as written: compact JSON without a trailing newline, so that no byte of the file is
 * insignificant (every changed byte changes a value the verifier reads).
 */
export function serializeEnvelope(envelope: DsseEnvelope): string {
  return JSON.stringify({
    payloadType: envelope.payloadType,
    payload: envelope.payload,
    signatures: envelope.signatures.map((s) => (s.keyid === undefined ? { sig: s.sig } : s)),
  });
}

/**
 * Reads a JSON envelope by DSSE envelope v1.0.2's parsing rules: `payload`, `payloadType`,
 * `signatures` and each `sig` are required; `keyid` may be unset (the same as empty); fields it
 * does not know are ignored. Base64 is strict (standard or URL-safe, see decodeStrictBase64).
 */
export function openEnvelope(bytes: Buffer): EnvelopeReading {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'not a DSSE envelope: the file is not UTF-8 text' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const truncated = text.trim().length > 0 && !text.trimEnd().endsWith('}');
    return {
      ok: false,
      reason: `not a DSSE envelope: ${truncated ? 'the JSON ends early (truncated?)' : `not JSON (${error instanceof Error ? error.message : String(error)})`}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'not a DSSE envelope: not a JSON object' };
  const fields = value as Record<string, unknown>;
  const { payloadType, payload, signatures } = fields;
  if (typeof payloadType !== 'string')
    return { ok: false, reason: 'not a DSSE envelope: "payloadType" is missing or not a string' };
  if (typeof payload !== 'string')
    return { ok: false, reason: 'not a DSSE envelope: "payload" is missing or not a string' };
  if (!Array.isArray(signatures))
    return { ok: false, reason: 'not a DSSE envelope: "signatures" is missing or not a list' };
  const body = decodeStrictBase64(payload);
  if (!body) return { ok: false, reason: 'not a DSSE envelope: "payload" is not Base64' };
  const read: OpenedEnvelope['signatures'] = [];
  for (const [index, entry] of signatures.entries()) {
    const signature = entry as Record<string, unknown> | null;
    if (typeof signature !== 'object' || signature === null || typeof signature['sig'] !== 'string')
      return { ok: false, reason: `not a DSSE envelope: signature ${index + 1} has no "sig"` };
    const keyid = signature['keyid'] ?? '';
    if (typeof keyid !== 'string')
      return {
        ok: false,
        reason: `not a DSSE envelope: the keyid of signature ${index + 1} is not a string`,
      };
    const sig = decodeStrictBase64(signature['sig']);
    if (!sig) return { ok: false, reason: `not a DSSE envelope: signature ${index + 1} is not Base64` };
    read.push({ keyid, sig });
  }
  return { ok: true, envelope: { payloadType, body, signatures: read } };
}

/**
 * DSSE protocol v1.0.2, "To verify": filter the signatures by KEYID, then verify SIGNATURE against
 * PAE(UTF8(PAYLOAD_TYPE), SERIALIZED_BODY). The key is tried only on a signature that names it
 * (`keyIdOf`): the protocol lets a verifier narrow the keys by KEYID, and this one narrows to the
 * exact id, so that a certificate whose KEYID was removed or changed is refused instead of
 * accepted on an unauthenticated field's absence. `true` when one signature verifies with `key`.
 */
export function signedBy(envelope: OpenedEnvelope, key: VerifyKey): boolean {
  const pae = preAuthEncoding(envelope.payloadType, envelope.body);
  return envelope.signatures.some((s) => s.keyid === key.keyId && verifies(pae, key, s.sig));
}

function verifies(pae: Buffer, key: VerifyKey, sig: Buffer): boolean {
  try {
    return verify(null, pae, key.publicKey, sig);
  } catch {
    return false;
  }
}
