import { EventEmitter } from 'node:events';
import type { Clock } from '../../shared/clock.ts';
import { AttentionIndex } from './attention-index.ts';
import { AttentionLedger } from './attention-ledger.ts';
import type { SiteView } from './caller-view.ts';
import { FleetAccess } from './fleet-access.ts';
import type { FleetChanges } from './fleet-changes.ts';
import { accountOf, type FleetFixture } from './fleet-fixture.ts';
import {
  type FleetCounters,
  type FleetJournal,
  type FleetSnapshot,
  MEMORY_JOURNAL,
} from './fleet-journal.ts';
import { IngestLinks } from './ingest-links.ts';
import { DEFAULT_SCRYPT_COST, type ScryptCost } from './password-hash.ts';
import { sha256Hex } from './sha256-hex.ts';
import { ViewRevisions } from './view-revisions.ts';

export interface FleetStateEvents {
  change: [];
  /** The control plane cut a site's link: the ingest server drops its connections. */
  'link-cut': [siteId: string];
}

/**
 * The one state of the simulated controller. REST, MCP, the ingest listener and the control plane
 * all read and change this object (MCP-ACK-SAME-AS-REST, MCP-SAME-DATA-AS-REST). It is made of
 * three parts by responsibility, sharing the journal, the clock and the view revisions:
 * - `access`: identity and access (partners, sites, rights, accounts, MCP tokens);
 * - `ingest`: the PBX links, inventories, stream positions and ingest counters;
 * - `attention`: the attention items and the acknowledgement history.
 * Every change is also written to the `FleetJournal` (in memory by default, LMDB with a data
 * directory), synchronously, before the change can be answered (issue 4, sections 1 and 5).
 */
export class FleetState extends EventEmitter<FleetStateEvents> {
  readonly access: FleetAccess;
  readonly ingest: IngestLinks;
  readonly attention: AttentionLedger;
  /** What each partner's site list depends on, touched by every change that can alter it. */
  private readonly views = new ViewRevisions();
  /** The sites needing attention, kept as they change (`fleet_attention`). */
  private readonly attentionIndex = new AttentionIndex(this);

  constructor(
    readonly clock: Clock,
    readonly scryptCost: ScryptCost = DEFAULT_SCRYPT_COST,
    private readonly journal: FleetJournal = MEMORY_JOURNAL,
  ) {
    super();
    const changes: FleetChanges = {
      journal,
      clock,
      touchSite: (siteId) => {
        this.views.touchSite(siteId, this.access.partnersOf(siteId));
        this.attentionIndex.touchSite(siteId);
      },
      touchPartner: (partnerId) => {
        this.views.touchPartner(partnerId);
        this.attentionIndex.touchPartner(partnerId);
      },
      changed: () => this.emit('change'),
      counters: () => this.counters(),
    };
    this.access = new FleetAccess(changes);
    this.ingest = new IngestLinks(changes, this.access, (siteId) => this.emit('link-cut', siteId));
    this.attention = new AttentionLedger(changes, this.access, this.ingest);
  }

  /** Runs `fn` so that everything it changes is written in one transaction. */
  atomically<T>(fn: () => T): T {
    return this.journal.atomically(fn);
  }

  /**
   * Runs `fn`, a batch of ingested lines, in one transaction, with what follows each report (view
   * revisions, stream positions, counters, the `change` event) done once for the batch
   * (`AttentionLedger.reportBatch`). The state changes at once; `committed` settles when the batch
   * is durable (`null`: it already is), and nothing written later commits before it.
   */
  ingestBatch<T>(fn: () => T): { result: T; committed: Promise<void> | null } {
    return this.attention.reportBatch(fn);
  }

  /** Replaces everything with `fixture`; clear passwords and token secrets are hashed here. */
  async load(fixture: FleetFixture): Promise<void> {
    const accounts = await Promise.all(fixture.accounts.map((a) => accountOf(a, this.scryptCost)));
    const { access, ingest } = this;
    this.journal.atomically(() => {
      this.journal.clear();
      this.clearAll();
      for (const p of fixture.partners) access.addPartner(p);
      for (const s of fixture.sites) access.addSite(s);
      for (const r of fixture.rights) access.grant(r);
      for (const a of accounts) access.addAccount(a);
      for (const t of fixture.tokens) {
        access.addToken({
          id: t.id,
          accountId: t.accountId,
          label: t.label,
          level: t.level,
          secretSha256: sha256Hex(t.secret),
          createdAt: this.clock.now(),
        });
      }
      for (const p of fixture.pbxs ?? [])
        ingest.putLink(p.siteId, { keySha256: sha256Hex(p.key), connected: 0, cut: false });
      for (const [siteId, inv] of Object.entries(fixture.inventories ?? {})) {
        const stored = structuredClone(inv);
        ingest.inventories.set(siteId, stored);
        this.journal.inventory(siteId, stored);
      }
      this.journal.counters(this.counters());
    });
    this.emit('change');
  }

  /**
   * Replaces everything with what a data directory held (no journal writes: it is already there).
   * Live connections start at zero.
   */
  restore(snapshot: FleetSnapshot): void {
    this.clearAll();
    this.access.restore(snapshot);
    this.ingest.restore(snapshot);
    this.attention.restore(snapshot);
    this.emit('change');
  }

  /**
   * The revision of the site list `partnerId` sees (FLEET-UNSPEC-ETAG): it changes whenever
   * anything in that list may have changed — a site's name, items, acknowledgements by this
   * partner, inventory or reachability, or the partner's rights — and not otherwise.
   */
  viewRevision(partnerId: string): number {
    return this.views.of(partnerId);
  }

  /**
   * The sites whose part of `partnerId`'s site list may have changed since `revision` (one
   * `viewRevision` gave), or `undefined` when the whole list may have: the partner's rights or
   * acknowledgements, or everything, changed since (issue 31 §4: a list is rendered again only
   * where it changed).
   */
  sitesTouchedSince(partnerId: string, revision: number): string[] | undefined {
    return this.views.sitesTouchedSince(partnerId, revision);
  }

  /**
   * The sites visible to `partnerId` whose `attention` is not empty, in site-list order, each as
   * its site-list entry shows it (MCP-ATTENTION-SITES), from an index kept as the fleet changes.
   */
  sitesNeedingAttention(partnerId: string): SiteView[] {
    return this.attentionIndex.sitesNeedingAttention(partnerId);
  }

  /** What keeps ids unique across a restart (FLEET-ITEM-ID-STABLE). */
  counters(): FleetCounters {
    return {
      nextItemId: this.attention.book.peekNextId(),
      historySeq: this.attention.lastHistorySeq,
      stats: { ...this.ingest.stats },
      clockAt: this.clock.now(),
    };
  }

  /** Writes what changes between writes without one of its own (the `invalid` and `duplicates` counts); at close. */
  flush(): void {
    this.journal.atomically(() => {
      this.ingest.saveStreams();
      this.journal.counters(this.counters());
    });
  }

  private clearAll(): void {
    this.access.clear();
    this.attention.clear();
    this.ingest.clear();
    // Everything rendered before is outdated; what `load` and `restore` add touches on top.
    this.views.touchAll();
    this.attentionIndex.touchAll();
  }
}
