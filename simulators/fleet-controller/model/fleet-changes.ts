import type { Clock } from '../../shared/clock.ts';
import type { FleetCounters, FleetJournal } from './fleet-journal.ts';

/**
 * What the parts of the fleet state (access, ingest links, attention) share: the journal every
 * change is written to, the clock, and the notifications that keep the partners' site-list views
 * (FLEET-UNSPEC-ETAG) and the listeners current. `FleetState` provides it.
 */
export interface FleetChanges {
  readonly journal: FleetJournal;
  readonly clock: Clock;
  /** Every partner holding a right on the site sees the change. */
  touchSite(siteId: string): void;
  touchPartner(partnerId: string): void;
  /** Something changed (the `change` event). */
  changed(): void;
  /** What keeps ids unique across a restart, written with every report and history entry. */
  counters(): FleetCounters;
}
