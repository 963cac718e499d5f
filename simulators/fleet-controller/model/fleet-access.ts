import { randomBytes } from 'node:crypto';
import type { FleetChanges } from './fleet-changes.ts';
import { ConflictError, NotFoundError } from './fleet-errors.ts';
import type { FleetSnapshot } from './fleet-journal.ts';
import { sha256Hex } from './sha256-hex.ts';
import type { AccessTokenRecord, Account, PartnerAccess, Site, SiteRight } from './types.ts';

/**
 * Identity and access of the controller: partner accesses, sites, the partners' rights on sites
 * (FLEET-AUTH-VISIBLE-SITES), accounts (passwords as salted hashes) and MCP access tokens (only
 * the SHA-256 of the secret is kept).
 */
export class FleetAccess {
  readonly partners = new Map<string, PartnerAccess>();
  readonly sites = new Map<string, Site>();
  /** partnerId → siteId → right. */
  readonly rights = new Map<string, Map<string, SiteRight>>();
  readonly accounts = new Map<string, Account>();
  readonly tokens = new Map<string, AccessTokenRecord>();
  readonly tokensBySecretHash = new Map<string, AccessTokenRecord>();

  constructor(private readonly fleet: FleetChanges) {}

  addPartner(partner: PartnerAccess): void {
    if (this.partners.has(partner.id)) throw new ConflictError(`partner ${partner.id} exists`);
    const stored = { ...partner };
    this.partners.set(partner.id, stored);
    this.fleet.journal.partner(stored);
    this.fleet.touchPartner(partner.id);
    this.fleet.changed();
  }

  addSite(site: Site): void {
    if (this.sites.has(site.id)) throw new ConflictError(`site ${site.id} exists`);
    const stored = { ...site };
    this.sites.set(site.id, stored);
    this.fleet.journal.site(stored);
    this.fleet.touchSite(site.id);
    this.fleet.changed();
  }

  renameSite(siteId: string, displayName: string): void {
    const site = this.requireSite(siteId);
    site.displayName = displayName;
    this.fleet.journal.site(site);
    this.fleet.touchSite(siteId);
    this.fleet.changed();
  }

  requireSite(siteId: string): Site {
    const site = this.sites.get(siteId);
    if (!site) throw new NotFoundError(`site ${siteId}`);
    return site;
  }

  grant(right: SiteRight): void {
    if (!this.partners.has(right.partnerId)) throw new NotFoundError(`partner ${right.partnerId}`);
    this.requireSite(right.siteId);
    let map = this.rights.get(right.partnerId);
    if (!map) {
      map = new Map();
      this.rights.set(right.partnerId, map);
    }
    const stored: SiteRight = { partnerId: right.partnerId, siteId: right.siteId, kind: right.kind };
    if (right.modules) stored.modules = [...right.modules];
    map.set(right.siteId, stored);
    this.fleet.journal.right(right.partnerId, right.siteId, stored);
    this.fleet.touchPartner(right.partnerId);
    this.fleet.changed();
  }

  revoke(partnerId: string, siteId: string): void {
    this.rights.get(partnerId)?.delete(siteId);
    this.fleet.journal.right(partnerId, siteId, null);
    this.fleet.touchPartner(partnerId);
    this.fleet.changed();
  }

  rightOf(partnerId: string, siteId: string): SiteRight | undefined {
    return this.rights.get(partnerId)?.get(siteId);
  }

  /** The partners holding a right on `siteId`. */
  partnersOf(siteId: string): string[] {
    const partners: string[] = [];
    for (const [partnerId, rights] of this.rights) if (rights.has(siteId)) partners.push(partnerId);
    return partners;
  }

  addAccount(account: Account): void {
    if (this.accounts.has(account.id)) throw new ConflictError(`account ${account.id} exists`);
    if (this.accountByEmail(account.email)) throw new ConflictError(`e-mail ${account.email} is taken`);
    if (!this.partners.has(account.partnerId)) throw new NotFoundError(`partner ${account.partnerId}`);
    const stored = { ...account };
    this.accounts.set(account.id, stored);
    this.fleet.journal.account(stored);
    this.fleet.changed();
  }

  /** The control plane changed fields of a stored account in place. */
  accountChanged(account: Account): void {
    if (this.accounts.get(account.id) !== account) throw new NotFoundError(`account ${account.id}`);
    this.fleet.journal.account(account);
    this.fleet.changed();
  }

  /** E-mail addresses match case-insensitively. */
  accountByEmail(email: string): Account | undefined {
    const wanted = email.toLowerCase();
    for (const a of this.accounts.values()) if (a.email.toLowerCase() === wanted) return a;
    return undefined;
  }

  requireAccount(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw new NotFoundError(`account ${id}`);
    return account;
  }

  addToken(token: AccessTokenRecord): void {
    this.requireAccount(token.accountId);
    if (this.tokens.has(token.id)) throw new ConflictError(`token ${token.id} exists`);
    this.tokens.set(token.id, token);
    this.tokensBySecretHash.set(token.secretSha256, token);
    this.fleet.journal.token(token.id, token);
  }

  /** Issues a token with a fresh 32-byte secret; the clear secret is returned once and not kept. */
  issueToken(input: { accountId: string; level: AccessTokenRecord['level']; label?: string }): {
    id: string;
    secret: string;
  } {
    const secret = randomBytes(32).toString('base64url');
    const id = `tok-${randomBytes(6).toString('hex')}`;
    this.addToken({
      id,
      accountId: input.accountId,
      label: input.label ?? 'MCP',
      level: input.level,
      secretSha256: sha256Hex(secret),
      createdAt: this.fleet.clock.now(),
    });
    return { id, secret };
  }

  revokeToken(id: string): void {
    const token = this.tokens.get(id);
    if (!token) throw new NotFoundError(`token ${id}`);
    this.tokens.delete(id);
    this.tokensBySecretHash.delete(token.secretSha256);
    this.fleet.journal.token(id, null);
  }

  /** Takes over what a data directory held (no journal writes). */
  restore(snapshot: FleetSnapshot): void {
    for (const p of snapshot.partners) this.partners.set(p.id, p);
    for (const s of snapshot.sites) this.sites.set(s.id, s);
    for (const r of snapshot.rights) {
      let map = this.rights.get(r.partnerId);
      if (!map) {
        map = new Map();
        this.rights.set(r.partnerId, map);
      }
      map.set(r.siteId, r);
    }
    for (const a of snapshot.accounts) this.accounts.set(a.id, a);
    for (const t of snapshot.tokens) {
      this.tokens.set(t.id, t);
      this.tokensBySecretHash.set(t.secretSha256, t);
    }
  }

  clear(): void {
    this.partners.clear();
    this.sites.clear();
    this.rights.clear();
    this.accounts.clear();
    this.tokens.clear();
    this.tokensBySecretHash.clear();
  }
}
