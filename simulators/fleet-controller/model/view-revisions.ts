/**
 * Revision numbers of what each partner access sees in its site list, so a rendered list can be
 * reused until something it shows changes (FLEET-SITES-NOT-MODIFIED, FLEET-UNSPEC-ETAG).
 *
 * All numbers come from one counter that only rises: a partner's revision is the number of the
 * last change that touched it or everything, so any change after a rendering gives a larger number
 * and the rendering is never mistaken for current. `FleetState` decides what touches whom.
 */
export class ViewRevisions {
  private counter = 0;
  private everything = 0;
  private readonly byPartner = new Map<string, number>();
  /** The number of the last change that touched the partner as a whole (rights, acknowledgements). */
  private readonly partnerWide = new Map<string, number>();
  /** The number of the last change that touched each site (issue 31 §4: what to render again). */
  private readonly bySite = new Map<string, number>();
  /**
   * Every site touch in order, as site and number (the numbers rise), so the sites touched since
   * a revision are found from the end instead of by a walk over every site ever touched (issue 31
   * §4: at 100,000 sites that walk took milliseconds per `/sites` GET). Compacted to each site's
   * last touch when it has grown past twice the sites.
   */
  private touchedSites: string[] = [];
  private touchedAt: number[] = [];

  /** The revision of `partnerId`'s view; equal numbers mean nothing it shows has changed. */
  of(partnerId: string): number {
    return Math.max(this.everything, this.byPartner.get(partnerId) ?? 0);
  }

  /** Something of the partner as a whole changed: its rights, its acknowledgements. */
  touchPartner(partnerId: string): void {
    const revision = ++this.counter;
    this.byPartner.set(partnerId, revision);
    this.partnerWide.set(partnerId, revision);
  }

  /** Something one site shows changed, for each partner holding a right on it. */
  touchSite(siteId: string, partners: Iterable<string>): void {
    const revision = ++this.counter;
    this.bySite.set(siteId, revision);
    this.touchedSites.push(siteId);
    this.touchedAt.push(revision);
    if (this.touchedSites.length > 2 * this.bySite.size + 1024) this.compact();
    for (const partnerId of partners) this.byPartner.set(partnerId, revision);
  }

  /** Keeps each site's last touch only, in order. */
  private compact(): void {
    const last = [...this.bySite].sort((a, b) => a[1] - b[1]);
    this.touchedSites = last.map(([siteId]) => siteId);
    this.touchedAt = last.map(([, at]) => at);
  }

  /**
   * The sites touched after `revision` (a revision `of(partnerId)` gave), when that is all that
   * changed for the partner since; `undefined` when the partner as a whole or everything was
   * touched since, and its whole view must be looked at again.
   */
  sitesTouchedSince(partnerId: string, revision: number): string[] | undefined {
    if (this.everything > revision || (this.partnerWide.get(partnerId) ?? 0) > revision) return undefined;
    // The first touch after `revision` (binary search: the numbers rise), then each site once.
    let low = 0;
    let high = this.touchedAt.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.touchedAt[middle]! > revision) high = middle;
      else low = middle + 1;
    }
    const touched = new Set<string>();
    for (let at = low; at < this.touchedSites.length; at++) touched.add(this.touchedSites[at]!);
    return [...touched];
  }

  /** Every view changed (a reset or a restore); the per-partner numbers are then all outdated. */
  touchAll(): void {
    this.everything = ++this.counter;
    this.byPartner.clear();
    this.partnerWide.clear();
    this.bySite.clear();
    this.touchedSites = [];
    this.touchedAt = [];
  }
}
