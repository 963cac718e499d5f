/** Partner release and system reports on the PBX (features/events/forwarding.feature). */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { SiteRole } from './support/fleet-target.ts';

/** Releases or withdraws the partner on the site's PBX and notes where its module log stands. */
async function release(
  world: PbxWorld,
  fleet: import('./support/fleet-context.ts').FleetContext,
  role: SiteRole,
  released: boolean,
) {
  const siteId = await fleet.siteId(role);
  const plane = await fleet.pbx(siteId, released ? 'release a partner' : 'withdraw the partner');
  await plane.control.setPartnerReleased({ released });
  fleet.kept.set(`logSeq:${siteId}`, (await plane.control.moduleLog()).at(-1)?.seq ?? 0);
  world.evidence({ exchange: `PBX ${siteId}: partner ${released ? 'released' : 'withdrawn'}` });
}

Given(
  'a partner is released on the PBX of {fleetSite}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole) {
    await release(this, fleet, role, true);
  }),
);

Given(
  'no partner is released on the PBX of {fleetSite}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole) {
    await release(this, fleet, role, false);
  }),
);

Then(
  'the PBX of {fleetSite} has a new system report naming {string}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, subject: string) {
    const siteId = await fleet.siteId(role);
    const plane = await fleet.pbx(siteId, 'read the module log');
    const since = fleet.kept.get(`logSeq:${siteId}`) as number | undefined;
    const entries = await plane.control.moduleLog({ since });
    this.evidence({
      exchange: `PBX ${siteId} module log since ${since}`,
      response: JSON.stringify(entries, null, 1),
    });
    // EVENT-UNSPEC-PARTNER-RELEASE: the form of the report is not stated; it must name the subject.
    const report = entries.find((e) => `${e.message} ${JSON.stringify(e.data ?? {})}`.includes(subject));
    assert.ok(report, `no new module-log entry names "${subject}"`);
  }),
);
