import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FleetState } from './fleet-state.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { sha256Hex } from './sha256-hex.ts';
import type { AccessTokenRecord, Account } from './types.ts';

/** Bound on remembered successful sign-ins. */
const MAX_REMEMBERED = 10_000;

/** A successful sign-in, remembered under the keyed hash of its `Authorization` header. */
interface RememberedSignIn {
  /** The memo's bytes, compared in constant time on every hit. */
  memo: Buffer;
  accountId: string;
  /** The account's e-mail and stored password hash when the password was checked. */
  email: string;
  passwordHash: string;
}

/** Characters of a memo (SHA-256 as latin1 text, 32) that key the memory; the compare sees all. */
const MEMO_KEY_CHARS = 16;

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
 * scrypt costs tens of milliseconds, so a successful check is remembered under a keyed hash of
 * the `Authorization` header (SHA-256 over a per-process random key and the header), with the
 * account's id, e-mail and stored password hash of that moment. The header, and with it the
 * password, is never kept; a remembered sign-in counts only while the account still has that
 * e-mail and password hash, so a changed password misses the memory. The memo found is compared
 * with the request's in constant time. Unknown e-mails still pay one scrypt run against a dummy
 * hash so timing does not reveal which accounts exist.
 */
export class Authenticator {
  /** Text form of 32 random bytes: the key of the memos, never leaves the process. */
  private readonly key = randomBytes(32).toString('base64');
  private readonly remembered = new Map<string, RememberedSignIn>();
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly state: FleetState) {}

  /**
   * The account of Basic credentials this authenticator has already checked, at once (the memory
   * of successful sign-ins below); `undefined` when `basic` has to check them (unknown, wrong, or
   * not yet seen). It answers exactly as `basic` does for remembered credentials, without a
   * promise, a header parse or an account search: one hash of the header (issue 31 §3, the
   * poller's path).
   */
  rememberedBasic(header: string | undefined): Account | undefined {
    if (header === undefined) return undefined;
    const memo = this.memo(header);
    const entry = this.remembered.get(memo.slice(0, MEMO_KEY_CHARS));
    if (!entry || !timingSafeEqual(entry.memo, Buffer.from(memo, 'latin1'))) return undefined;
    const account = this.state.access.accounts.get(entry.accountId);
    if (!account || account.email !== entry.email || account.passwordHash !== entry.passwordHash)
      return undefined;
    return account;
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
    const known = this.rememberedBasic(header);
    if (known) return known;
    const stored = account.passwordHash;
    if (!(await verifyPassword(password, stored))) return null;
    // The account may have changed while scrypt ran.
    const current = this.state.access.accounts.get(account.id);
    if (!current || current.passwordHash !== stored || current.email !== account.email) return null;
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    const memo = this.memo(header ?? '');
    this.remembered.set(memo.slice(0, MEMO_KEY_CHARS), {
      memo: Buffer.from(memo, 'latin1'),
      accountId: current.id,
      email: current.email,
      passwordHash: stored,
    });
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
   * SHA-256 of the per-process key and the header, as latin1 text (`binary`, one character per byte): a
   * keyed hash only this process can compute, so the memory says nothing without the key. One
   * `hash` call (about 0.3 µs in a loop, against 2.3 µs for a fresh HMAC and a header parse; issue
   * 31 §3); latin1 is node 20's cheapest output of `hash` (base64url 0.4 µs, a Buffer 0.8 µs). The
   * memos never leave the process, so the HMAC construction's defence against extending a
   * published digest is not needed.
   */
  private memo(header: string): string {
    return hash('sha256', this.key + header, 'binary');
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
