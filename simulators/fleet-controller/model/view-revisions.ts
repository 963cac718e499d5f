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
    for (const partnerId of partners) this.byPartner.set(partnerId, revision);
  }

  /**
   * The sites touched after `revision` (a revision `of(partnerId)` gave), when that is all that
   * changed for the partner since; `undefined` when the partner as a whole or everything was
   * touched since, and its whole view must be looked at again.
   */
  sitesTouchedSince(partnerId: string, revision: number): string[] | undefined {
    if (this.everything > revision || (this.partnerWide.get(partnerId) ?? 0) > revision) return undefined;
    const touched: string[] = [];
    for (const [siteId, at] of this.bySite) if (at > revision) touched.push(siteId);
    return touched;
  }

  /** Every view changed (a reset or a restore); the per-partner numbers are then all outdated. */
  touchAll(): void {
    this.everything = ++this.counter;
    this.byPartner.clear();
    this.partnerWide.clear();
    this.bySite.clear();
  }
}
