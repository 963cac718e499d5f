/**
 * Secrets a user hands the harness (the fleet secret of `simulate --fleet-only`/`--shard`, a
 * `--control-token`): long enough to resist guessing, and never a placeholder copied from an
 * example (issue 29 item 6; `deploy/secret.yaml` ships `replace-me-with-a-random-secret`).
 */

/** The fewest characters a secret may have: 32 (what `openssl rand -hex 16` gives; `-hex 32` gives 64). */
export const MIN_SECRET_LENGTH = 32;

/** How to make a good one, said in every refusal. */
export const MAKE_A_SECRET = 'make one with `openssl rand -hex 32`';

/**
 * Placeholders of this project's own files and the usual ones of others', compared without case
 * and without separators (`Replace_Me` is `replaceme`).
 */
const PLACEHOLDERS = [
  'replace-me-with-a-random-secret',
  'replace-me',
  'replace-with-a-random-secret',
  'change-me',
  'change-this-secret',
  'changeit',
  'your-secret',
  'your-secret-here',
  'your-token-here',
  'insert-secret-here',
  'put-a-random-secret-here',
  'secret',
  'password',
  'example',
  'example-secret',
  'todo',
  'xxx',
].map(normalise);

function normalise(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

function isPlaceholder(secret: string): boolean {
  const bare = normalise(secret);
  if (PLACEHOLDERS.includes(bare)) return true;
  // `<secret>`, `${SECRET}`, `replace-me-…` and `changeme…` forms, and one character repeated.
  if (/^\s*(<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\})\s*$/.test(secret)) return true;
  if (/^(replaceme|changeme|yoursecret|insert)/.test(bare)) return true;
  return /^(.)\1*$/.test(secret);
}

/**
 * Why `secret` may not be used, in one line that names `what` (never the secret itself), or
 * `undefined` when it is fine.
 */
export function weakSecretReason(what: string, secret: string): string | undefined {
  if (secret === '') return `${what} is empty; ${MAKE_A_SECRET}`;
  if (isPlaceholder(secret))
    return `${what} is a placeholder, not a secret (deploy/secret.yaml's is one); ${MAKE_A_SECRET}`;
  if (secret.length < MIN_SECRET_LENGTH)
    return `${what} has ${secret.length} characters, fewer than the ${MIN_SECRET_LENGTH} a secret needs; ${MAKE_A_SECRET}`;
  return undefined;
}
