import { createHash } from 'node:crypto';
import type { LinkSocket } from '../shared/wire/in-process-pipe.ts';
import { partsOf } from './controller-parts.ts';
import type { FleetFixture } from './model/fleet-fixture.ts';
import type { HistoryRecord } from './model/types.ts';
import type { FleetHandle } from './start-controller.ts';

/**
 * The named functions of the front door over a started controller (issue 30 §2): what a fleet
 * engine or bench in the same process needs beyond the control client, each for one purpose.
 * `fleet` is a handle that `start()` returned; nothing else of the controller's inside leaves
 * simulators/fleet-controller/.
 */

/** A PBX link to the ingest listener through an in-process pipe instead of a socket (pooled fleets, issue 22). */
export function connectInProcess(fleet: FleetHandle): LinkSocket {
  return partsOf(fleet).ingest.connectInProcess();
}

/** TCP connections the ingest listener holds now (one per shard when multiplexed). */
export function ingestConnections(fleet: FleetHandle): Promise<number> {
  const { server } = partsOf(fleet).ingest;
  return new Promise((resolve, reject) =>
    server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
  );
}

/** How many sites have at least one PBX connected now (walks every link: not for a tight loop at scale). */
export function linkedSites(fleet: FleetHandle): number {
  let up = 0;
  for (const link of partsOf(fleet).state.ingest.links.values()) if (link.connected > 0) up++;
  return up;
}

/** Event messages accepted since start, read synchronously (as `stats().accepted`). */
export function acceptedEvents(fleet: FleetHandle): number {
  return partsOf(fleet).state.ingest.stats.accepted;
}

/**
 * Makes a controller restored from a data directory serve `fixture`'s PBXs: each PBX site missing
 * is added with the fixture's rights, and each PBX whose key differs is registered with this
 * fixture's key (a new directory got them all from the fixture already). Through the control client.
 */
export async function alignFixture(fleet: FleetHandle, fixture: FleetFixture): Promise<void> {
  const { state } = partsOf(fleet);
  for (const { siteId, key } of fixture.pbxs ?? []) {
    if (!state.access.sites.has(siteId)) {
      const site = fixture.sites.find((s) => s.id === siteId);
      await fleet.control.addSite({ id: siteId, displayName: site?.displayName ?? siteId });
      for (const right of fixture.rights.filter((r) => r.siteId === siteId))
        if (state.access.partners.has(right.partnerId)) await fleet.control.grant(right);
    }
    const keySha256 = createHash('sha256').update(key, 'utf8').digest('hex');
    if (state.ingest.links.get(siteId)?.keySha256 !== keySha256)
      await fleet.control.registerPbx({ siteId, key });
  }
}

/** The acknowledgement history as stored, every partner's entries (for audits, e.g. that no secret is in it). */
export function attentionHistory(fleet: FleetHandle): readonly HistoryRecord[] {
  return partsOf(fleet).state.attention.history;
}
