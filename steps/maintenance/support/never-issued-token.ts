import { randomBytes } from 'node:crypto';

/**
 * A token that was never issued, shaped like a real secret (32 random bytes, Base64url), so the
 * check cannot refuse it for its form alone (MAINT-AUTH-401-INVALID).
 */
export function neverIssuedTokenExample(): string {
  return randomBytes(32).toString('base64url');
}
