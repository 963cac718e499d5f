/** Bytes in a token secret (MAINT-TOKEN-SECRET-FORMAT). */
export const SECRET_BYTES = 32;

/** What the harness can tell about a token secret's encoding. */
export interface SecretFormat {
  /** Only `A–Z a–z 0–9 - _`, optionally followed by `=` padding (MAINT-UNSPEC-BASE64URL-PADDING). */
  base64url: boolean;
  /** Bytes the text decodes to; `null` when it is no Base64url text. */
  decodedBytes: number | null;
  /** The text without `=` padding. */
  unpadded: string;
}

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Reads a secret as Base64url, with or without `=` padding (the spec does not say which), and
 * checks that it is canonical: re-encoding the decoded bytes gives the same text, so no stray
 * bits hide in the last character.
 */
export function secretFormat(secret: string): SecretFormat {
  const unpadded = secret.replace(/=+$/, '');
  if (!BASE64URL.test(secret) || unpadded.length % 4 === 1) {
    return { base64url: false, decodedBytes: null, unpadded };
  }
  const padding = secret.length - unpadded.length;
  if (padding > 0 && secret.length % 4 !== 0) return { base64url: false, decodedBytes: null, unpadded };
  const bytes = Buffer.from(unpadded, 'base64url');
  const canonical = bytes.toString('base64url') === unpadded;
  return { base64url: canonical, decodedBytes: canonical ? bytes.length : null, unpadded };
}

/** True for a Base64url text of exactly 32 bytes: 43 characters, plus at most one `=`. */
export function isSecretOf32Bytes(secret: string): boolean {
  const format = secretFormat(secret);
  return format.base64url && format.decodedBytes === SECRET_BYTES && format.unpadded.length === 43;
}
