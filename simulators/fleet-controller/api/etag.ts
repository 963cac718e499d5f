import { createHash } from 'node:crypto';

/**
 * The ETag of a response body (FLEET-SITES-LIST, FLEET-SITES-ETAG-NEW-MESSAGE, FLEET-SITES-ETAG-ACK).
 *
 * FLEET-UNSPEC-ETAG: a strong ETag, the SHA-256 (base64url, first 32 characters) of the exact JSON
 * the caller receives. It therefore differs per caller's view and changes exactly when anything
 * the caller sees changes, including findings other than `events`.
 */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 §13.1.2: weak comparison, a list of
 * tags, or `*`).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}
