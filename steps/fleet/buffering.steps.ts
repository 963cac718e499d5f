/** The outage buffer of the PBX (features/events/buffering.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { type FleetContext, matches } from './support/fleet-context.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { SiteRole } from './support/fleet-target.ts';

/** The buffer while the link is down (EVENT-BUFFER-OFFLINE, EVENT-BUFFER-LIMIT). */
const BUFFER_SIZE = 20;

async function plane(fleet: FleetContext, role: SiteRole, purpose: string) {
  return fleet.pbx(await fleet.siteId(role), purpose);
}

Given(
  'the link of the PBX of {fleetSite} to the controller is cut',
  fleetStep(async (fleet, role: SiteRole) => {
    await (await plane(fleet, role, 'cut the link to the controller')).control.cutControllerLink();
  }),
);

When(
  'the link of the PBX of {fleetSite} to the controller is restored',
  fleetStep(async (fleet, role: SiteRole) => {
    const pbx = await plane(fleet, role, 'restore the link to the controller');
    await pbx.control.restoreControllerLink();
    await fleet.delivered(pbx, 'the buffered messages');
  }),
);

/** Raises one message from each of `count` modules of its own (no throttling), without waiting. */
async function outageMessages(
  fleet: FleetContext,
  count: number,
  role: SiteRole,
  prefix: string,
): Promise<string[]> {
  const siteId = await fleet.siteId(role);
  const labels: string[] = [];
  for (let i = 1; i <= count; i++) {
    const label = `${prefix} ${i}`;
    labels.push(label);
    const module = fleet.moduleName(`${prefix} Modul ${i}`);
    await fleet.raise(
      label,
      siteId,
      { module, subject: `Meldung während der Unterbrechung ${i}`, severity: 'ERROR' },
      { wait: false },
    );
  }
  return labels;
}

async function arrived(fleet: FleetContext, labels: readonly string[], evidence = true): Promise<string[]> {
  if (labels.length === 0) return [];
  const open = await fleet.openItems('partner', fleet.message(labels[0] ?? '').siteId, { evidence });
  return labels.filter((l) => open.some((i) => matches(i, fleet.message(l))));
}

When(
  '{int} modules each report one message on {fleetSite}',
  fleetStep(async (fleet, count: number, role: SiteRole) => {
    fleet.kept.set('outage', await outageMessages(fleet, count, role, 'Puffer'));
  }),
);

function outage(fleet: FleetContext): string[] {
  return (fleet.kept.get('outage') as string[] | undefined) ?? [];
}

Then(
  "none of those {int} messages is among the partner's open messages",
  fleetStep(async (fleet, count: number) => {
    assert.equal(outage(fleet).length, count);
    assert.deepEqual(await arrived(fleet, outage(fleet)), []);
  }),
);

Then(
  "all {int} of those messages are among the partner's open messages",
  fleetStep(async (fleet, count: number) => {
    assert.equal(outage(fleet).length, count);
    assert.deepEqual(await arrived(fleet, outage(fleet)), outage(fleet));
  }),
);

Then(
  "exactly {int} of those {int} messages are among the partner's open messages",
  fleetStep(async (fleet, expected: number, count: number) => {
    assert.equal(outage(fleet).length, count);
    const got = await arrived(fleet, outage(fleet));
    assert.equal(got.length, expected, `${got.length} arrived: ${got.join(', ')}`);
  }),
);

Then(
  'for a generated number of reports during an outage of the link, the smaller of that number and 20 arrive after the reconnect \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const pbx = await plane(fleet, 'own', 'cut and restore the link to the controller');
    let run = 0;
    const count = fc.oneof(
      fc.integer({ min: BUFFER_SIZE - 2, max: BUFFER_SIZE + 3 }),
      fc.integer({ min: 0, max: 30 }),
    );
    await assertLiveProperty(
      this,
      'at most 20 messages of one outage arrive, and all of them when there are no more',
      fc.asyncProperty(count, async (n) => {
        run++;
        await pbx.control.cutControllerLink();
        const labels = await outageMessages(fleet, n, 'own', `Ausfall ${run}`);
        assert.deepEqual(await arrived(fleet, labels, false), [], 'messages arrived while the link was down');
        await pbx.control.restoreControllerLink();
        await fleet.delivered(pbx, 'the buffered messages');
        const got = await arrived(fleet, labels, false);
        assert.equal(got.length, Math.min(n, BUFFER_SIZE), `${got.length} of ${n} messages arrived`);
      }),
      runs,
    );
  }),
);
