import { createHash } from 'node:crypto';

/**
 * The ETag of a response body (FLEET-SITES-LIST, FLEET-SITES-ETAG-NEW-MESSAGE, FLEET-SITES-ETAG-ACK).
 *
 * FLEET-UNSPEC-ETAG: a strong ETag, the SHA-256 (base64url, first 32 characters) of the exact JSON
 * the caller receives. It therefore differs per caller's view and changes exactly when anything
 * the caller sees changes, including findings other than `events`.
 */
export function etagOf(body: string | Buffer): string {
  // A Buffer is hashed as it is: the UTF-8 bytes of the body, without encoding the text again.
  const hash =
    typeof body === 'string' ? createHash('sha256').update(body, 'utf8') : createHash('sha256').update(body);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/**
 * One element of an entity-tag list (RFC 9110 §5.6.1, §8.8.3): optional white space, an optional
 * entity-tag (`W/` and a quoted opaque-tag of etagc characters), optional white space, then a comma
 * or the end. Empty elements are legal.
 */
const LIST_ELEMENT = /[ \t]*(?:(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(?:,|$)/y;

/**
 * Whether an `If-None-Match` header matches `etag`, so the answer is 304 (FLEET-SITES-NOT-MODIFIED).
 * RFC 9110 §13.1.2: `*` alone matches any current representation; otherwise the field is a list of
 * entity-tags (`W/"x", "y"`), compared with the weak comparison (§8.8.3.2: the opaque-tags are
 * equal, whether either is weak or not). A field that is neither is ignored (no 304).
 *
 * Kept by hand rather than calling the `fresh` package (issue 15), which has the same weak
 * comparison: `fresh` answers "stale" whenever the request carries `Cache-Control: no-cache`, so a
 * poller that sends it with `If-None-Match` would never get the 304 the fleet spec promises; and
 * its list reader takes neither tabs as white space nor commas inside a quoted tag. A unit test
 * checks that this function and `fresh` agree on every header both read the same way.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // The common poller sends back exactly the strong ETag it was given: one element, that tag.
  if (header === etag && etag.startsWith('"')) return true;
  if (header.trim() === '*') return true;
  const tags: string[] = [];
  for (let at = 0; at < header.length; at = LIST_ELEMENT.lastIndex) {
    LIST_ELEMENT.lastIndex = at;
    const element = LIST_ELEMENT.exec(header);
    if (element === null) return false;
    if (element[1] !== undefined) tags.push(element[1]);
  }
  return tags.includes(opaqueTag(etag));
}

/** The opaque-tag of an ETag (`W/"x"` and `"x"` both give `x`). */
function opaqueTag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}
