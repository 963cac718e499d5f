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

  /** The revision of `partnerId`'s view; equal numbers mean nothing it shows has changed. */
  of(partnerId: string): number {
    return Math.max(this.everything, this.byPartner.get(partnerId) ?? 0);
  }

  touchPartner(partnerId: string): void {
    this.byPartner.set(partnerId, ++this.counter);
  }

  /** Every view changed (a reset or a restore); the per-partner numbers are then all outdated. */
  touchAll(): void {
    this.everything = ++this.counter;
    this.byPartner.clear();
  }
}
