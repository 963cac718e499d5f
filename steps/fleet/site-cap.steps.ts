/** At most 200 distinct messages per site (features/events/site-cap.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { type FleetContext, matches, THROTTLE_BURST } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { SiteRole } from './support/fleet-target.ts';
import { assertReportTime } from './support/report-time.ts';

/** Distinct messages a site holds (EVENT-SITE-CAP). */
const SITE_CAP = 200;

/** Raises `count` distinct messages, five per module so no report is withheld, then waits once. */
async function distinctMessages(fleet: FleetContext, count: number, role: SiteRole): Promise<string[]> {
  const siteId = await fleet.siteId(role);
  const labels: string[] = [];
  for (let i = 0; i < count; i++) {
    const label = `Nummer ${i + 1}`;
    labels.push(label);
    const module = fleet.moduleName(`Kapazität ${Math.floor(i / THROTTLE_BURST)}`);
    await fleet.raise(label, siteId, { module, subject: label, severity: 'INFO' }, { wait: false });
  }
  const pbx = await fleet.target.pbx(siteId);
  if (pbx) await fleet.delivered(pbx, `${count} messages`);
  return labels;
}

async function listedCount(fleet: FleetContext, role: SiteRole): Promise<number> {
  const siteId = await fleet.siteId(role);
  const mine = [...fleet.messages.values()].filter((m) => m.siteId === siteId);
  const open = await fleet.openItems('partner', siteId, { evidence: false });
  return open.filter((i) => mine.some((m) => matches(i, m))).length;
}

Given(
  "a fresh site of the partner, added through the controller's control plane",
  fleetStep(async (fleet) => {
    // EVENT-UNSPEC-CAP-DETAIL leaves open whether acknowledged items count towards the 200, so a
    // site that held items before cannot be "emptied"; a new one holds none.
    await fleet.addFreshSite('add a fresh site that holds no message yet');
  }),
);

When(
  '{int} distinct messages are reported on {fleetSite}',
  fleetStep(async (fleet, count: number, role: SiteRole) => {
    fleet.kept.set('capLabels', await distinctMessages(fleet, count, role));
  }),
);

Then(
  '{fleetSite} lists those {int} messages as open',
  fleetStep(async (fleet, role: SiteRole, count: number) => {
    assert.equal(await listedCount(fleet, role), count);
  }),
);

Then(
  "{fleetSite} lists {int} of the scenario's messages as open",
  fleetStep(async (fleet, role: SiteRole, count: number) => {
    assert.equal(await listedCount(fleet, role), count);
  }),
);

When(
  'one more distinct message {string} is reported on {fleetSite}',
  fleetStep(async (fleet, label: string, role: SiteRole) => {
    await fleet.raise(label, await fleet.siteId(role), {
      module: fleet.moduleName('Kapazität extra'),
      subject: label,
      severity: 'INFO',
    });
  }),
);

When(
  'the first of the {int} messages is reported again on {fleetSite}, {int} minutes later',
  fleetStep(async (fleet, _count: number, role: SiteRole, minutes: number) => {
    const siteId = await fleet.siteId(role);
    const first = fleet.message('Nummer 1');
    fleet.kept.set('repeated', first.label);
    const event = { module: first.module, subject: first.subject, severity: first.severity };
    const plane = await fleet.target.pbx(siteId);
    if (plane) {
      await plane.control.advanceClock({ ms: minutes * 60_000 });
      await fleet.raise(first.label, siteId, event, { unthrottled: true });
      return;
    }
    // A site without a PBX (a fresh one on a remote target): the report is injected as if a PBX had
    // forwarded it, with the PBX time the step picks, so lastAt can still be checked against it.
    const control = fleet.control('report a message again at a chosen PBX time');
    const at = (await control.now()).now + minutes * 60_000;
    await control.injectEvent({ siteId, ...event, at });
    first.reportedAt.push(at);
    first.reportedWithin.push([at, at]);
  }),
);

Then(
  'that message shows {int} occurrences and lastAt equal to the PBX clock at its latest report',
  fleetStep(async (fleet, occurrences: number) => {
    const label = fleet.kept.get('repeated') as string;
    const item = await fleet.findItem('partner', label);
    assert.ok(item, `"${label}" is not listed`);
    assert.equal(item.occurrences, occurrences, 'occurrences');
    const times = fleet.message(label).reportedWithin;
    if (times.length === 0) notVerifiable('the PBX times are known only for messages raised on a PBX');
    assertReportTime(item.lastAt, times.at(-1), 'lastAt');
  }),
);

Then(
  'for generated numbers of distinct messages around 200 a fresh site holds the smaller of that number and 200, and a repeat still updates an item \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const control = fleet.control('add a fresh site per run and inject messages');
    const partnerId = fleet.account('partner').partnerId;
    if (!partnerId) notVerifiable('the target names no control-plane partnerId for the partner');
    let run = 0;
    await assertLiveProperty(
      this,
      'a site holds at most 200 distinct messages and still updates them',
      fc.asyncProperty(fc.integer({ min: SITE_CAP - 3, max: SITE_CAP + 4 }), async (count) => {
        run++;
        const siteId = `site-${fleet.tag}-cap-${run}`;
        await control.addSite({ id: siteId, displayName: `Kapazität ${run}` });
        await control.grant({ partnerId, siteId, kind: 'own' });
        const start = (await control.now()).now;
        for (let i = 0; i < count; i++) {
          await control.injectEvent({
            siteId,
            module: 'Kapazität',
            subject: `Nummer ${i + 1}`,
            severity: 'INFO',
            at: start,
          });
        }
        const open = await fleet.openItems('partner', siteId, { evidence: false });
        assert.equal(
          open.length,
          Math.min(count, SITE_CAP),
          `the site holds ${open.length} of ${count} messages`,
        );
        const repeatAt = start + 60_000;
        await control.injectEvent({
          siteId,
          module: 'Kapazität',
          subject: 'Nummer 1',
          severity: 'INFO',
          at: repeatAt,
        });
        const updated = (await fleet.openItems('partner', siteId, { evidence: false })).find(
          (i) => i.subject === 'Nummer 1',
        );
        assert.equal(updated?.occurrences, 2, 'the repeat did not count');
        assert.equal(updated?.lastAt, repeatAt, 'the repeat did not update lastAt');
      }),
      runs,
    );
  }),
);
