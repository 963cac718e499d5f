/**
 * Decodes Base64 as DSSE's envelope allows it (DSSE envelope v1.0.2: "Either standard or URL-safe
 * encoding is allowed"; protocol: verifiers MUST accept either), and nothing else. Node's own
 * decoder skips characters outside the alphabet and ignores stray bits in the last character, so
 * two different texts can decode to the same bytes; a certificate whose text was changed must not
 * verify, so this decoder refuses every text that is not the one encoding of its bytes (padding
 * optional). Returns `null` for such a text.
 */
export function decodeStrictBase64(text: string): Buffer | null {
  const urlSafe = /[-_]/.test(text);
  const alphabet = urlSafe ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!alphabet.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  if (text.length !== bare.length && text.length % 4 !== 0) return null;
  const bytes = Buffer.from(bare, urlSafe ? 'base64url' : 'base64');
  const again = bytes.toString(urlSafe ? 'base64url' : 'base64').replace(/=+$/, '');
  return again === bare ? bytes : null;
}
