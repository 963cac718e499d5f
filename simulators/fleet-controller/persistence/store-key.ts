import { createHash } from 'node:crypto';

/** Keys longer than this (UTF-8 bytes) are replaced by a digest; LMDB keys end at 1978 bytes. */
const MAX_PLAIN_KEY_BYTES = 500;

/**
 * The LMDB key of a record named by string parts (a site id, a partner and site, a stream).
 * LMDB's string keys may not contain NUL and are short; the JSON text of the parts has no raw NUL
 * (it is escaped) and long ones become `#` + SHA-256. Records carry their ids in the value, so the
 * key only has to be derived the same way for a write and for the removal.
 */
export function storeKey(...parts: string[]): string {
  const plain = JSON.stringify(parts);
  if (Buffer.byteLength(plain, 'utf8') <= MAX_PLAIN_KEY_BYTES) return plain;
  return `#${createHash('sha256').update(plain, 'utf8').digest('base64url')}`;
}
