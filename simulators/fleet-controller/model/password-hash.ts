import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost parameters; tests may lower `N` to keep property runs fast. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 16_384, r: 8, p: 1 };

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...cost, maxmem: 256 * cost.N * cost.r },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/**
 * A salted scrypt hash of `password` in the form `scrypt$N$r$p$<salt b64url>$<key b64url>`.
 * Controller accounts keep only this (issue 4, section 5: passwords are stored as hashes).
 */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks `password` against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, salt, { N, r, p });
  return timingSafeEqual(actual, expected);
}
