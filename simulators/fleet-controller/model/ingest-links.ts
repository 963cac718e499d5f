import { randomBytes } from 'node:crypto';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import { evaluateFindings } from './findings.ts';
import type { FleetAccess } from './fleet-access.ts';
import type { FleetChanges } from './fleet-changes.ts';
import { NotFoundError } from './fleet-errors.ts';
import type { FleetSnapshot } from './fleet-journal.ts';
import { sha256Hex } from './sha256-hex.ts';
import type { IngestStats } from './types.ts';

/** The ingest link of a site: who may connect, how many are connected, whether it is cut. */
export interface LinkRecord {
  keySha256: string;
  connected: number;
  cut: boolean;
}

/** The findings an inventory gives, as one text (reachability aside: it does not change with it). */
const findingsOf = (inventory: PbxInventory | null) =>
  evaluateFindings({ reachable: null, inventory }).join(',');

/**
 * Bound on remembered ingest streams (one per PBX forwarder instance): this many, or two per
 * registered PBX where that is more (issue 31 §4: 100,000 PBXs each keep a stream; with a bound
 * below that, every new event forgot some other PBX's position, and its re-sent events after a
 * reconnect would have counted twice).
 */
const MAX_STREAMS = 10_000;

/**
 * The PBX side of the controller: each site's registered link (ingest key hash, live connections,
 * cut), the inventories the PBXs report (FLEET-FINDINGS-SELF-CLEARING), the stream positions that
 * make re-sent events count once, and the ingest counters the control plane shows.
 */
export class IngestLinks {
  readonly links = new Map<string, LinkRecord>();
  readonly inventories = new Map<string, PbxInventory>();
  /** Ingest stream id → highest sequence number processed (exactly-once after re-sends). */
  readonly streams = new Map<string, number>();
  stats: IngestStats = freshStats();
  /** Stream positions accepted but not yet written; they go with the report that follows. */
  private readonly unsavedStreams = new Set<string>();

  constructor(
    private readonly fleet: FleetChanges,
    private readonly access: FleetAccess,
    /** The control plane cut a site's link: the ingest server drops its connections. */
    private readonly onCut: (siteId: string) => void,
  ) {}

  /** Registers a PBX for a site; returns the ingest key (shown once, only its hash is kept). */
  registerPbx(siteId: string, key = randomBytes(32).toString('base64url')): string {
    this.access.requireSite(siteId);
    const link = this.links.get(siteId);
    this.putLink(siteId, {
      keySha256: sha256Hex(key),
      connected: link?.connected ?? 0,
      cut: link?.cut ?? false,
    });
    this.fleet.touchSite(siteId);
    this.fleet.changed();
    return key;
  }

  /** Stores a link and writes it (without the live connection count). */
  putLink(siteId: string, link: LinkRecord): void {
    this.links.set(siteId, link);
    this.fleet.journal.link(siteId, { siteId, keySha256: link.keySha256, cut: link.cut });
  }

  /** `null` without a registered PBX, else whether one is connected (findings `offline`). */
  reachable(siteId: string): boolean | null {
    const link = this.links.get(siteId);
    return link ? link.connected > 0 : null;
  }

  /**
   * Keeps the inventory a site's PBX reported (or the control plane set). The site lists and
   * `fleet_attention` show it only through the findings evaluated from it, so one that changes no
   * finding — a PBX re-sends its inventory every 5 minutes — leaves them as they were (issue 31
   * §4: at 100,000 sites that is 333 inventories a second, each of which outdated every list).
   *
   * The inventory given becomes the state's own and is kept as it is: callers hand over one that
   * nothing else holds, as `asInventory` makes it from a line or a control-plane body (the ingest
   * session and the control plane do). It used to be copied once more, which was four fifths of
   * this call's CPU and most of its garbage (17 % of a 100,000-PBX controller's start).
   */
  setInventory(siteId: string, inventory: PbxInventory | null): void {
    this.access.requireSite(siteId);
    const before = this.inventories.get(siteId) ?? null;
    const stored = inventory;
    if (stored) this.inventories.set(siteId, stored);
    else this.inventories.delete(siteId);
    this.fleet.journal.inventory(siteId, stored);
    if (findingsOf(before) !== findingsOf(stored)) this.fleet.touchSite(siteId);
    this.fleet.changed();
  }

  /** Cuts the link of a site: connections are dropped and refused until `restoreLink`. */
  cutLink(siteId: string): void {
    const link = this.requireLink(siteId);
    link.cut = true;
    this.putLink(siteId, link);
    this.onCut(siteId);
    this.fleet.touchSite(siteId);
    this.fleet.changed();
  }

  restoreLink(siteId: string): void {
    const link = this.requireLink(siteId);
    link.cut = false;
    this.putLink(siteId, link);
    this.fleet.touchSite(siteId);
    this.fleet.changed();
  }

  /** The ingest listener reports the number of live connections of a site (reachability). */
  setConnections(siteId: string, count: number): void {
    const link = this.links.get(siteId);
    if (!link || link.connected === count) return;
    // The views show only whether one is connected (finding `offline`), not how many.
    if (link.connected > 0 !== count > 0) this.fleet.touchSite(siteId);
    link.connected = count;
    this.fleet.changed();
  }

  requireLink(siteId: string): LinkRecord {
    const link = this.links.get(siteId);
    if (!link) throw new NotFoundError(`no PBX registered for site ${siteId}`);
    return link;
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
    if (this.streams.size > Math.max(MAX_STREAMS, 2 * this.links.size)) {
      const oldest = this.streams.keys().next().value;
      if (oldest !== undefined) {
        this.streams.delete(oldest);
        this.unsavedStreams.add(oldest);
      }
    }
    return true;
  }

  lastSequence(streamId: string): number {
    return this.streams.get(streamId) ?? 0;
  }

  /** A malformed line on the ingest link (written with the next report or at close). */
  countInvalid(): void {
    this.stats.invalid++;
  }

  /**
   * Writes accepted stream positions. A report does it in the transaction of the report that
   * follows the sequence check, so a restart never applies a re-sent event twice or loses one.
   */
  saveStreams(): void {
    for (const id of this.unsavedStreams) this.fleet.journal.stream(id, this.streams.get(id) ?? null);
    this.unsavedStreams.clear();
  }

  /** Takes over what a data directory held (no journal writes); live connections start at zero. */
  restore(snapshot: FleetSnapshot): void {
    for (const l of snapshot.links)
      this.links.set(l.siteId, { keySha256: l.keySha256, connected: 0, cut: l.cut });
    for (const { siteId, inventory } of snapshot.inventories) this.inventories.set(siteId, inventory);
    for (const { id, seq } of snapshot.streams) this.streams.set(id, seq);
    this.stats = { ...freshStats(), ...snapshot.counters.stats };
  }

  /** Forgets everything; every live link is cut first. */
  clear(): void {
    this.inventories.clear();
    for (const siteId of this.links.keys()) this.onCut(siteId);
    this.links.clear();
    this.streams.clear();
    this.unsavedStreams.clear();
    this.stats = freshStats();
  }
}

function freshStats(): IngestStats {
  return { accepted: 0, capped: 0, cappedSuppressed: 0, duplicates: 0, invalid: 0 };
}
