import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FleetState } from './fleet-state.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { sha256Hex } from './sha256-hex.ts';
import type { AccessTokenRecord, Account } from './types.ts';

/** Bound on remembered successful sign-ins. */
const MAX_REMEMBERED = 10_000;

/**
 * Checks the credentials of interface B.
 *
 * - FLEET-AUTH-BASIC: `Authorization: Basic base64(<EMAIL>:<PASSWORD>)` of a local account; the
 *   e-mail matches case-insensitively, the password is split off at the first `:` and checked
 *   against the salted scrypt hash in constant time.
 * - FLEET-AUTH-IDP-ONLY: an account without password never signs in.
 * - MCP-UNSPEC-TRANSPORT: MCP callers send `Authorization: Bearer <access token>`; the token's
 *   SHA-256 finds the record, compared again in constant time.
 *
 * scrypt costs tens of milliseconds, so a successful check is remembered as a keyed hash under a
 * per-process random key over account id, stored hash and password; the password itself is never
 * kept, and a changed password (new hash) misses the memory. Unknown e-mails still pay one scrypt
 * run against a dummy hash so timing does not reveal which accounts exist.
 */
export class Authenticator {
  private readonly keyed = createHash('sha256').update(randomBytes(32));
  private readonly remembered = new Set<string>();
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly state: FleetState) {}

  /**
   * The account of Basic credentials this authenticator has already checked, at once (the memory
   * of successful sign-ins below); `undefined` when `basic` has to check them (unknown, wrong, or
   * not yet seen). It answers exactly as `basic` does for remembered credentials, without a
   * promise: the poller's path (issue 31 §3).
   */
  rememberedBasic(header: string | undefined): Account | undefined {
    const credentials = parseBasic(header);
    if (!credentials) return undefined;
    const account = this.state.access.accountByEmail(credentials.email);
    if (!account || account.passwordHash === null) return undefined;
    return this.remembered.has(this.memo(account, credentials.password)) ? account : undefined;
  }

  async basic(header: string | undefined): Promise<Account | null> {
    const credentials = parseBasic(header);
    if (!credentials) return null;
    const { email, password } = credentials;
    const account = this.state.access.accountByEmail(email);
    if (!account || account.passwordHash === null) {
      this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'), this.state.scryptCost);
      await verifyPassword(password, await this.dummyHash);
      return null;
    }
    const memo = this.memo(account, password);
    if (this.remembered.has(memo)) return account;
    const stored = account.passwordHash;
    if (!(await verifyPassword(password, stored))) return null;
    // The account may have changed while scrypt ran.
    const current = this.state.access.accounts.get(account.id);
    if (!current || current.passwordHash !== stored) return null;
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.add(memo);
    return current;
  }

  bearer(header: string | undefined): { account: Account; token: AccessTokenRecord } | null {
    const match = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header ?? '');
    if (!match?.[1]) return null;
    const hash = sha256Hex(match[1]);
    const token = this.state.access.tokensBySecretHash.get(hash);
    if (!token || !timingSafeEqual(Buffer.from(token.secretSha256, 'hex'), Buffer.from(hash, 'hex')))
      return null;
    const account = this.state.access.accounts.get(token.accountId);
    if (!account) return null;
    return { account, token };
  }

  /**
   * SHA-256 of the per-process key, account id, stored hash and password: a keyed hash that only
   * this process can compute, so the set of memos says nothing without the key. The key's hash
   * state is kept and copied per check (issue 31 §3: half the cost of a fresh HMAC on every
   * request of a poller); the memos never leave the process, so the HMAC construction's defence
   * against extending a published digest is not needed.
   */
  private memo(account: Account, password: string): string {
    return this.keyed
      .copy()
      .update(`${account.id}\0${account.passwordHash ?? ''}\0${password}`, 'utf8')
      .digest('base64url');
  }
}

/** FLEET-AUTH-BASIC: e-mail and password of a Basic header (split at the first `:`), or `null`. */
function parseBasic(header: string | undefined): { email: string; password: string } | null {
  const match = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
