import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Clock } from '../../shared/clock.ts';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { AttentionBook, type ReportOutcome } from './attention-book.ts';
import type { FleetFixture } from './fleet-fixture.ts';
import {
  type FleetCounters,
  type FleetJournal,
  type FleetSnapshot,
  MEMORY_JOURNAL,
} from './fleet-journal.ts';
import { DEFAULT_SCRYPT_COST, hashPassword, type ScryptCost } from './password-hash.ts';
import type {
  AccessTokenRecord,
  Account,
  AttentionItem,
  AttentionReport,
  HistoryRecord,
  IngestStats,
  PartnerAccess,
  Site,
  SiteRight,
} from './types.ts';
import { ViewRevisions } from './view-revisions.ts';

/** The ingest link of a site: who may connect, how many are connected, whether it is cut. */
export interface LinkRecord {
  keySha256: string;
  connected: number;
  cut: boolean;
}

export interface FleetStateEvents {
  change: [];
  /** The control plane cut a site's link: the ingest server drops its connections. */
  'link-cut': [siteId: string];
}

/** Bound on remembered ingest streams (one per PBX forwarder instance). */
const MAX_STREAMS = 10_000;

/**
 * The one state of the simulated controller. REST, MCP, the ingest listener and the control plane
 * all read and change this object (MCP-ACK-SAME-AS-REST, MCP-SAME-DATA-AS-REST).
 * Every change is also written to the `FleetJournal` (in memory by default, LMDB with a data
 * directory), synchronously, before the change can be answered (issue 4, sections 1 and 5).
 */
export class FleetState extends EventEmitter<FleetStateEvents> {
  readonly partners = new Map<string, PartnerAccess>();
  readonly sites = new Map<string, Site>();
  /** partnerId → siteId → right. */
  readonly rights = new Map<string, Map<string, SiteRight>>();
  readonly accounts = new Map<string, Account>();
  readonly tokens = new Map<string, AccessTokenRecord>();
  readonly tokensBySecretHash = new Map<string, AccessTokenRecord>();
  book = new AttentionBook();
  history: HistoryRecord[] = [];
  readonly inventories = new Map<string, PbxInventory>();
  readonly links = new Map<string, LinkRecord>();
  /** Ingest stream id → highest sequence number processed (exactly-once after re-sends). */
  readonly streams = new Map<string, number>();
  stats: IngestStats = freshStats();
  private historySeq = 0;
  /** Stream positions accepted but not yet written; they go with the report that follows. */
  private readonly unsavedStreams = new Set<string>();
  /** What each partner's site list depends on, touched by every change that can alter it. */
  private readonly views = new ViewRevisions();

  constructor(
    readonly clock: Clock,
    readonly scryptCost: ScryptCost = DEFAULT_SCRYPT_COST,
    private readonly journal: FleetJournal = MEMORY_JOURNAL,
  ) {
    super();
  }

  /** Runs `fn` so that everything it changes is written in one transaction. */
  atomically<T>(fn: () => T): T {
    return this.journal.atomically(fn);
  }

  /** Replaces everything with `fixture`; clear passwords and token secrets are hashed here. */
  async load(fixture: FleetFixture): Promise<void> {
    const accounts = await Promise.all(
      fixture.accounts.map(async (a) => ({
        id: a.id,
        email: a.email,
        name: a.name,
        role: a.role,
        partnerId: a.partnerId,
        passwordHash: a.password === null ? null : await hashPassword(a.password, this.scryptCost),
        level: a.level ?? (a.role === 'Viewer' ? 'read' : 'read-write'),
      })),
    );
    this.journal.atomically(() => {
      this.journal.clear();
      this.clearAll();
      for (const p of fixture.partners) this.addPartner(p);
      for (const s of fixture.sites) this.addSite(s);
      for (const r of fixture.rights) this.grant(r);
      for (const a of accounts) this.addAccount(a as Account);
      for (const t of fixture.tokens) {
        this.addToken({
          id: t.id,
          accountId: t.accountId,
          label: t.label,
          level: t.level,
          secretSha256: sha256Hex(t.secret),
          createdAt: this.clock.now(),
        });
      }
      for (const p of fixture.pbxs ?? [])
        this.putLink(p.siteId, { keySha256: sha256Hex(p.key), connected: 0, cut: false });
      for (const [siteId, inv] of Object.entries(fixture.inventories ?? {})) {
        const stored = structuredClone(inv);
        this.inventories.set(siteId, stored);
        this.journal.inventory(siteId, stored);
      }
      this.journal.counters(this.counters());
    });
    this.changed();
  }

  /**
   * Replaces everything with what a data directory held (no journal writes: it is already there).
   * Live connections start at zero.
   */
  restore(snapshot: FleetSnapshot): void {
    this.clearAll();
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
    for (const l of snapshot.links)
      this.links.set(l.siteId, { keySha256: l.keySha256, connected: 0, cut: l.cut });
    for (const { siteId, inventory } of snapshot.inventories) this.inventories.set(siteId, inventory);
    this.book.restore(snapshot.items, snapshot.counters.nextItemId);
    this.history = [...snapshot.history];
    this.historySeq = Math.max(snapshot.counters.historySeq, ...this.history.map((h) => h.seq));
    for (const { id, seq } of snapshot.streams) this.streams.set(id, seq);
    this.stats = { ...freshStats(), ...snapshot.counters.stats };
    this.changed();
  }

  /**
   * The revision of the site list `partnerId` sees (FLEET-UNSPEC-ETAG): it changes whenever
   * anything in that list may have changed — a site's name, items, acknowledgements by this
   * partner, inventory or reachability, or the partner's rights — and not otherwise.
   */
  viewRevision(partnerId: string): number {
    return this.views.of(partnerId);
  }

  /** What keeps ids unique across a restart (FLEET-ITEM-ID-STABLE). */
  counters(): FleetCounters {
    return {
      nextItemId: this.book.peekNextId(),
      historySeq: this.historySeq,
      stats: { ...this.stats },
      clockAt: this.clock.now(),
    };
  }

  addPartner(partner: PartnerAccess): void {
    if (this.partners.has(partner.id)) throw new ConflictError(`partner ${partner.id} exists`);
    const stored = { ...partner };
    this.partners.set(partner.id, stored);
    this.journal.partner(stored);
    this.views.touchPartner(partner.id);
    this.changed();
  }

  addSite(site: Site): void {
    if (this.sites.has(site.id)) throw new ConflictError(`site ${site.id} exists`);
    const stored = { ...site };
    this.sites.set(site.id, stored);
    this.journal.site(stored);
    this.touchSite(site.id);
    this.changed();
  }

  renameSite(siteId: string, displayName: string): void {
    const site = this.requireSite(siteId);
    site.displayName = displayName;
    this.journal.site(site);
    this.touchSite(siteId);
    this.changed();
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
    this.journal.right(right.partnerId, right.siteId, stored);
    this.views.touchPartner(right.partnerId);
    this.changed();
  }

  revoke(partnerId: string, siteId: string): void {
    this.rights.get(partnerId)?.delete(siteId);
    this.journal.right(partnerId, siteId, null);
    this.views.touchPartner(partnerId);
    this.changed();
  }

  rightOf(partnerId: string, siteId: string): SiteRight | undefined {
    return this.rights.get(partnerId)?.get(siteId);
  }

  addAccount(account: Account): void {
    if (this.accounts.has(account.id)) throw new ConflictError(`account ${account.id} exists`);
    if (this.accountByEmail(account.email)) throw new ConflictError(`e-mail ${account.email} is taken`);
    if (!this.partners.has(account.partnerId)) throw new NotFoundError(`partner ${account.partnerId}`);
    const stored = { ...account };
    this.accounts.set(account.id, stored);
    this.journal.account(stored);
    this.changed();
  }

  /** The control plane changed fields of a stored account in place. */
  accountChanged(account: Account): void {
    if (this.accounts.get(account.id) !== account) throw new NotFoundError(`account ${account.id}`);
    this.journal.account(account);
    this.changed();
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
    this.journal.token(token.id, token);
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
      createdAt: this.clock.now(),
    });
    return { id, secret };
  }

  revokeToken(id: string): void {
    const token = this.tokens.get(id);
    if (!token) throw new NotFoundError(`token ${id}`);
    this.tokens.delete(id);
    this.tokensBySecretHash.delete(token.secretSha256);
    this.journal.token(id, null);
  }

  requireSite(siteId: string): Site {
    const site = this.sites.get(siteId);
    if (!site) throw new NotFoundError(`site ${siteId}`);
    return site;
  }

  /** Registers a PBX for a site; returns the ingest key (shown once, only its hash is kept). */
  registerPbx(siteId: string, key = randomBytes(32).toString('base64url')): string {
    this.requireSite(siteId);
    const link = this.links.get(siteId);
    this.putLink(siteId, {
      keySha256: sha256Hex(key),
      connected: link?.connected ?? 0,
      cut: link?.cut ?? false,
    });
    this.touchSite(siteId);
    this.changed();
    return key;
  }

  private putLink(siteId: string, link: LinkRecord): void {
    this.links.set(siteId, link);
    this.journal.link(siteId, { siteId, keySha256: link.keySha256, cut: link.cut });
  }

  /** `null` without a registered PBX, else whether one is connected (findings `offline`). */
  reachable(siteId: string): boolean | null {
    const link = this.links.get(siteId);
    return link ? link.connected > 0 : null;
  }

  setInventory(siteId: string, inventory: PbxInventory | null): void {
    this.requireSite(siteId);
    const stored = inventory ? structuredClone(inventory) : null;
    if (stored) this.inventories.set(siteId, stored);
    else this.inventories.delete(siteId);
    this.journal.inventory(siteId, stored);
    this.touchSite(siteId);
    this.changed();
  }

  /** Cuts the link of a site: connections are dropped and refused until `restoreLink`. */
  cutLink(siteId: string): void {
    const link = this.requireLink(siteId);
    link.cut = true;
    this.putLink(siteId, link);
    this.emit('link-cut', siteId);
    this.touchSite(siteId);
    this.changed();
  }

  restoreLink(siteId: string): void {
    const link = this.requireLink(siteId);
    link.cut = false;
    this.putLink(siteId, link);
    this.touchSite(siteId);
    this.changed();
  }

  /** The ingest listener reports the number of live connections of a site (reachability). */
  setConnections(siteId: string, count: number): void {
    const link = this.links.get(siteId);
    if (!link || link.connected === count) return;
    // The views show only whether one is connected (finding `offline`), not how many.
    if (link.connected > 0 !== count > 0) this.touchSite(siteId);
    link.connected = count;
    this.changed();
  }

  requireLink(siteId: string): LinkRecord {
    const link = this.links.get(siteId);
    if (!link) throw new NotFoundError(`no PBX registered for site ${siteId}`);
    return link;
  }

  /** Applies one report to the site's items (EVENT-FIRST-REPORT-OPENS, EVENT-REPEAT-MERGED, EVENT-SITE-CAP). */
  report(siteId: string, report: AttentionReport): ReportOutcome {
    this.requireSite(siteId);
    const outcome = this.journal.atomically(() => {
      const outcome = this.book.report(siteId, report);
      if (outcome.kind === 'capped') {
        this.stats.capped++;
        this.stats.cappedSuppressed += report.suppressed;
      } else {
        this.stats.accepted++;
        this.journal.item(outcome.item);
        this.touchSite(siteId);
      }
      this.saveStreams();
      this.journal.counters(this.counters());
      return outcome;
    });
    this.changed();
    return outcome;
  }

  /**
   * Acknowledges `item` for `partnerId` (FLEET-ACK-FIRST, FLEET-ACK-REPEAT). The caller writes the
   * history entry in the same `atomically` block (FLEET-ACK-HISTORY-ONCE).
   */
  acknowledgeItem(item: AttentionItem, partnerId: string): { alreadyAcknowledged: boolean; at: number } {
    const outcome = this.book.acknowledge(item, partnerId, this.clock.now());
    if (!outcome.alreadyAcknowledged) {
      this.journal.item(item);
      // Only this partner's open list loses the item; the others' views are unchanged.
      this.views.touchPartner(partnerId);
    }
    return outcome;
  }

  /** Whether `seq` of `streamId` is new; remembers it. Streams beyond the bound forget the oldest. */
  acceptSequence(streamId: string, seq: number): boolean {
    const last = this.streams.get(streamId);
    if (last !== undefined && seq <= last) {
      this.stats.duplicates++;
      return false;
    }
    this.streams.delete(streamId);
    this.streams.set(streamId, seq);
    this.unsavedStreams.add(streamId);
    if (this.streams.size > MAX_STREAMS) {
      const oldest = this.streams.keys().next().value;
      if (oldest !== undefined) {
        this.streams.delete(oldest);
        this.unsavedStreams.add(oldest);
      }
    }
    return true;
  }

  /** A malformed line on the ingest link (written with the next report or at close, see `flush`). */
  countInvalid(): void {
    this.stats.invalid++;
  }

  /** Writes what changes between writes without one of its own (the `invalid` and `duplicates` counts); at close. */
  flush(): void {
    this.journal.atomically(() => {
      this.saveStreams();
      this.journal.counters(this.counters());
    });
  }

  /**
   * Writes accepted stream positions. `report` does it in the transaction of the report that
   * follows the sequence check, so a restart never applies a re-sent event twice or loses one.
   */
  private saveStreams(): void {
    for (const id of this.unsavedStreams) this.journal.stream(id, this.streams.get(id) ?? null);
    this.unsavedStreams.clear();
  }

  lastSequence(streamId: string): number {
    return this.streams.get(streamId) ?? 0;
  }

  appendHistory(record: Omit<HistoryRecord, 'seq'>): HistoryRecord {
    const stored = { ...record, seq: ++this.historySeq };
    this.history.push(stored);
    this.journal.atomically(() => {
      this.journal.history(stored);
      this.journal.counters(this.counters());
    });
    this.changed();
    return stored;
  }

  private clearAll(): void {
    this.partners.clear();
    this.sites.clear();
    this.rights.clear();
    this.accounts.clear();
    this.tokens.clear();
    this.tokensBySecretHash.clear();
    this.book = new AttentionBook();
    this.history = [];
    this.historySeq = 0;
    this.inventories.clear();
    for (const siteId of this.links.keys()) this.emit('link-cut', siteId);
    this.links.clear();
    this.streams.clear();
    this.unsavedStreams.clear();
    this.stats = freshStats();
    // Everything rendered before is outdated; what `load` and `restore` add touches on top.
    this.views.touchAll();
  }

  /** Every partner holding a right on the site sees the change. */
  private touchSite(siteId: string): void {
    for (const [partnerId, rights] of this.rights) if (rights.has(siteId)) this.views.touchPartner(partnerId);
  }

  private changed(): void {
    this.emit('change');
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function freshStats(): IngestStats {
  return { accepted: 0, capped: 0, cappedSuppressed: 0, duplicates: 0, invalid: 0 };
}

/** The control plane addressed something that does not exist (HTTP 404 there). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** The control plane tried to create something that exists (HTTP 409 there). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}
