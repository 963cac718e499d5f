import { createHash, timingSafeEqual } from 'node:crypto';
import type { PbxUser } from '../state/types.ts';

/** Lowercase hex SHA-512 of a UTF-8 string. */
export function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/**
 * The SECRET of the credentials parameter for a login whose password hash is known:
 * lowercase hex SHA-512(login + `*` + passwordSha512) (XMLRPC-AUTH-PARAM).
 */
export function xmlrpcSecret(login: string, passwordSha512: string): string {
  return sha512Hex(`${login}*${passwordSha512}`);
}

/**
 * The value of the credentials URL parameter (`de.vendor.pbx.auth` by default):
 * `<login>:<lowercase hex SHA-512(login + "*" + lowercase hex SHA-512(password))>`, strings as
 * UTF-8 (XMLRPC-AUTH-PARAM; test-vectors.md "XML-RPC credentials"). The value is not URL-encoded.
 */
export function xmlrpcAuthValue(login: string, password: string): string {
  return `${login}:${xmlrpcSecret(login, sha512Hex(password))}`;
}

export type XmlRpcAuthResult =
  | { ok: true; login: string }
  /** `malformed`: no `:` or an empty login; the value is not echoed (it may be a bare secret). */
  | { ok: false; reason: 'missing' | 'malformed' }
  | { ok: false; reason: 'unknown-login' | 'bad-secret'; login: string };

/** A SHA-512 hex digest is 128 characters; every comparison runs over this many bytes. */
const SECRET_LENGTH = 128;
/** Stands in for the password hash of an unknown login so that path costs the same work. */
const DUMMY_PASSWORD_SHA512 = sha512Hex('pbx-simulator: no such user');

/**
 * Checks a credentials value against the PBX users (XMLRPC-AUTH-PARAM, XMLRPC-ERR-NO-LOGIN,
 * XMLRPC-ERR-BAD-LOGIN). The value is the already percent-decoded parameter, or `null` when the
 * parameter is absent.
 *
 * - The login is everything before the LAST `:` (a secret is hex and holds no `:`, so logins may).
 * - The secret must be lowercase hex, as the spec writes it; upper-case hex is rejected.
 * - Logins match exactly (case-sensitive); with duplicate logins the first user counts.
 * - The secret is compared with `timingSafeEqual` over a fixed length, and an unknown login is
 *   compared against a dummy hash, so neither the secret nor the existence of a login shows in
 *   the timing.
 */
export function verifyXmlRpcAuth(value: string | null, users: readonly PbxUser[]): XmlRpcAuthResult {
  if (value === null || value === '') return { ok: false, reason: 'missing' };
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return { ok: false, reason: 'malformed' };
  const login = value.slice(0, colon);
  const given = value.slice(colon + 1);
  const user = users.find((u) => u.login === login);
  const expected = Buffer.from(xmlrpcSecret(login, user?.passwordSha512 ?? DUMMY_PASSWORD_SHA512), 'latin1');
  const givenBytes = Buffer.from(given, 'utf8');
  const padded = Buffer.alloc(SECRET_LENGTH);
  givenBytes.copy(padded, 0, 0, SECRET_LENGTH);
  const equal = timingSafeEqual(padded, expected);
  if (!user) return { ok: false, reason: 'unknown-login', login };
  if (!equal || givenBytes.length !== SECRET_LENGTH) return { ok: false, reason: 'bad-secret', login };
  return { ok: true, login };
}
