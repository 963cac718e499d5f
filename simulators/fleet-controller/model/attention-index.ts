import { compareSites, type SiteView, siteView } from './caller-view.ts';
import { evaluateFindings } from './findings.ts';
import type { FleetReads } from './fleet-reads.ts';

/** A kept view of one site for one partner, valid while the partner's generation is unchanged. */
interface KeptView {
  generation: number;
  /** `null`: nothing needs attention there for that partner. */
  view: SiteView | null;
}

/**
 * The sites that need attention, kept as the fleet changes, so `fleet_attention` costs what those
 * sites cost rather than a rendering of every visible site (issue 31 §4: 3.3 s at 100,000 sites).
 *
 * It learns of changes through the same notifications as the site-list views (FLEET-UNSPEC-ETAG):
 * `touchSite` for whatever a site's view shows (name, items, inventory, reachability, link),
 * `touchPartner` for a partner's rights and acknowledgements, `touchAll` for a reset or restore.
 * A touch only marks; the work is done at the next query, for the marked sites alone.
 *
 * - Candidates: the sites with a finding or with any item (open for some partner or not); no other
 *   site can show a non-empty `attention` (MCP-ATTENTION-SITES, FLEET-SITE-EVENTS-KEY).
 * - Each candidate's view per partner is kept until the site or the partner is touched, and is
 *   exactly `siteView` of that moment (MCP-ATTENTION-EVENTS, MCP-ATTENTION-READ-LEVEL: the
 *   partner's right and module list decide which items show).
 */
export class AttentionIndex {
  private readonly candidates = new Set<string>();
  /**
   * The candidates in site-list order (FLEET-UNSPEC-ORDERING), kept as they come and go, so a
   * query walks them in order instead of sorting them (issue 31 §4: at 100,000 sites a few
   * thousand candidates took tens of ms of collation per call).
   */
  private ordered: { id: string; displayName: string }[] = [];
  /** The display name each candidate is ordered by. */
  private readonly orderedName = new Map<string, string>();
  /** Sites touched since the last query. */
  private readonly dirty = new Set<string>();
  /** Everything must be looked at again (at first, after a reset or a restore). */
  private rebuildAll = true;
  /** siteId → partnerId → the view kept for that partner. */
  private readonly kept = new Map<string, Map<string, KeptView>>();
  /** partnerId → generation; touching a partner outdates every view kept for it. */
  private readonly generations = new Map<string, number>();
  private generationCounter = 0;

  constructor(private readonly state: FleetReads) {}

  touchSite(siteId: string): void {
    if (!this.rebuildAll) this.dirty.add(siteId);
  }

  touchPartner(partnerId: string): void {
    this.generations.set(partnerId, ++this.generationCounter);
  }

  touchAll(): void {
    this.rebuildAll = true;
    this.dirty.clear();
    this.kept.clear();
    this.candidates.clear();
    this.ordered = [];
    this.orderedName.clear();
  }

  /**
   * The sites visible to `partnerId` whose `attention` is not empty, as `siteView` shows them, in
   * site-list order (FLEET-UNSPEC-ORDERING).
   */
  sitesNeedingAttention(partnerId: string): SiteView[] {
    this.refresh();
    const rights = this.state.access.rights.get(partnerId);
    if (!rights) return [];
    const generation = this.generations.get(partnerId) ?? 0;
    const found: SiteView[] = [];
    for (const { id: siteId } of this.ordered) {
      const right = rights.get(siteId);
      const site = this.state.access.sites.get(siteId);
      if (!right || !site) continue;
      let perPartner = this.kept.get(siteId);
      let entry = perPartner?.get(partnerId);
      if (!entry || entry.generation !== generation) {
        const view = siteView(this.state, site, right);
        entry = { generation, view: view.attention.length > 0 ? view : null };
        if (!perPartner) {
          perPartner = new Map();
          this.kept.set(siteId, perPartner);
        }
        perPartner.set(partnerId, entry);
      }
      if (entry.view) found.push(entry.view);
    }
    return found;
  }

  /** Looks again at the sites touched since the last query (or at every site after `touchAll`). */
  private refresh(): void {
    if (this.rebuildAll) {
      this.rebuildAll = false;
      this.dirty.clear();
      for (const siteId of this.state.access.sites.keys()) this.consider(siteId, false);
      // Ordered once, not inserted one by one.
      this.ordered = [...this.candidates].map((id) => ({
        id,
        displayName: this.state.access.sites.get(id)!.displayName,
      }));
      this.ordered.sort((a, b) => compareSites({ site: a }, { site: b }));
      for (const { id, displayName } of this.ordered) this.orderedName.set(id, displayName);
      return;
    }
    for (const siteId of this.dirty) {
      this.kept.delete(siteId);
      this.consider(siteId, true);
    }
    this.dirty.clear();
  }

  /** Where `site` stands in `ordered`, or would (binary search by the site-list order). */
  private position(site: { id: string; displayName: string }): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareSites({ site: this.ordered[middle]! }, { site }) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private unorder(siteId: string): void {
    const displayName = this.orderedName.get(siteId);
    if (displayName === undefined) return;
    const at = this.position({ id: siteId, displayName });
    if (this.ordered[at]?.id === siteId) this.ordered.splice(at, 1);
    this.orderedName.delete(siteId);
  }

  /** Puts a candidate in its place in `ordered`, moving it when its name changed. */
  private order(siteId: string): void {
    const displayName = this.state.access.sites.get(siteId)!.displayName;
    if (this.orderedName.get(siteId) === displayName) return;
    this.unorder(siteId);
    const site = { id: siteId, displayName };
    this.ordered.splice(this.position(site), 0, site);
    this.orderedName.set(siteId, displayName);
  }

  private consider(siteId: string, keepOrder: boolean): void {
    const { state } = this;
    const candidate =
      state.access.sites.has(siteId) &&
      (state.attention.book.countOf(siteId) > 0 ||
        evaluateFindings({
          reachable: state.ingest.reachable(siteId),
          inventory: state.ingest.inventories.get(siteId) ?? null,
        }).length > 0);
    if (candidate) {
      this.candidates.add(siteId);
      if (keepOrder) this.order(siteId);
    } else {
      this.candidates.delete(siteId);
      this.kept.delete(siteId);
      if (keepOrder) this.unorder(siteId);
    }
  }
}
