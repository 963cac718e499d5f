/** Throttling per module and system (features/events/throttling.feature). */
import assert from 'node:assert/strict';
import { type DataTable, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { type FleetContext, matches, THROTTLE_BURST, THROTTLE_INTERVAL_MS } from './support/fleet-context.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { SiteRole } from './support/fleet-target.ts';
import { allowanceExcess } from './support/throttle-allowance.ts';
import { awaitWithheldCounts, type WithheldTally, withheldProblem } from './support/withheld-count.ts';

/** Raises `count` different subjects of one module at one PBX instant; keeps the labels in order. */
async function burst(fleet: FleetContext, module: string, count: number, role: SiteRole, more: boolean) {
  const siteId = await fleet.siteId(role);
  const plane = await fleet.pbx(siteId, 'raise events at one PBX instant');
  const earlier = more ? ((fleet.kept.get(`subjects:${module}`) as string[] | undefined) ?? []) : [];
  const labels: string[] = [];
  for (let i = 0; i < count; i++) {
    const label = `${module}: Meldung ${earlier.length + i + 1}`;
    labels.push(label);
    await fleet.raise(
      label,
      siteId,
      { module: fleet.moduleName(module), subject: label, severity: 'WARNING' },
      { wait: false },
    );
  }
  await fleet.delivered(plane, `the events of ${module}`);
  fleet.kept.set(`subjects:${module}`, [...earlier, ...labels]);
  fleet.kept.set('batch', labels);
}

async function openLabels(fleet: FleetContext, labels: readonly string[]): Promise<string[]> {
  const siteId = fleet.message(labels[0] ?? '').siteId;
  const open = await fleet.openItems('partner', siteId);
  return labels.filter((l) => open.some((i) => matches(i, fleet.message(l))));
}

function batch(fleet: FleetContext): string[] {
  return (fleet.kept.get('batch') as string[] | undefined) ?? [];
}

When(
  'the module {string} reports {int} different subjects at the same moment on {fleetSite}',
  fleetStep(async (fleet, module: string, count: number, role: SiteRole) => {
    await burst(fleet, module, count, role, false);
  }),
);

When(
  'the module {string} reports {int} more different subjects at the same moment on {fleetSite}',
  fleetStep(async (fleet, module: string, count: number, role: SiteRole) => {
    await burst(fleet, module, count, role, true);
  }),
);

When(
  'the module {string} reports {string} with severity {string} on {fleetSite} {int} times at the same moment',
  fleetStep(
    async (fleet, module: string, subject: string, severity: string, role: SiteRole, times: number) => {
      const siteId = await fleet.siteId(role);
      const plane = await fleet.pbx(siteId, 'raise events at one PBX instant');
      const event = { module: fleet.moduleName(module), subject, severity: severity as 'WARNING' };
      for (let i = 0; i < times; i++) await fleet.raise(subject, siteId, event, { wait: false });
      await fleet.delivered(plane, `the reports of "${subject}"`);
    },
  ),
);

When(
  'the module {string} reports these subjects at the same moment on {fleetSite}:',
  fleetStep(async (fleet, module: string, role: SiteRole, table: DataTable) => {
    const siteId = await fleet.siteId(role);
    const plane = await fleet.pbx(siteId, 'raise events at one PBX instant');
    for (const subject of table.raw().map((row) => row[0] ?? '')) {
      const event = { module: fleet.moduleName(module), subject, severity: 'WARNING' as const };
      await fleet.raise(subject, siteId, event, { wait: false });
    }
    await fleet.delivered(plane, `the reports of ${module}`);
  }),
);

When(
  'the PBX clock of {fleetSite} moves on in steps of ten minutes, with {names} reported again after each, until the withheld count(s) arrive(s)',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, labels: string[]) {
    const plane = await fleet.pbx(await fleet.siteId(role), 'move the PBX clock on and raise reports');
    const waited = await awaitWithheldCounts(fleet, plane, labels);
    fleet.kept.set('withheld', waited);
    this.evidence({
      exchange: `withheld counts after ${waited.rounds} round(s) of ten PBX minutes`,
      response: JSON.stringify(waited.tallies, null, 1),
    });
  }),
);

Then(
  'the message(s) {names} show(s) in suppressed exactly the reports of each that the controller did not receive',
  fleetStep(async (fleet, labels: string[]) => {
    const waited = fleet.kept.get('withheld') as { tallies: WithheldTally[]; rounds: number } | undefined;
    assert.ok(waited, 'the scenario did not wait for the withheld counts');
    for (const label of labels) {
      const tally = waited.tallies.find((t) => t.label === label);
      assert.ok(tally, `the scenario did not wait for the withheld count of "${label}"`);
      const problem = withheldProblem(tally, waited.rounds);
      assert.equal(problem, null, problem ?? '');
    }
  }),
);

Then(
  "all {int} of those subjects are among the partner's open messages",
  fleetStep(async (fleet, count: number) => {
    const labels = batch(fleet);
    assert.equal(labels.length, count, 'the scenario raised another number of subjects');
    assert.deepEqual(await openLabels(fleet, labels), labels);
  }),
);

Then(
  "the first {int} of those subjects are among the partner's open messages and the other {int} are not",
  fleetStep(async (fleet, first: number, others: number) => {
    const labels = batch(fleet);
    assert.equal(labels.length, first + others, 'the scenario raised another number of subjects');
    assert.deepEqual(await openLabels(fleet, labels), labels.slice(0, first));
  }),
);

Then(
  "at most {int} of those {int} subjects is/are among the partner's open messages",
  fleetStep(async (fleet, most: number, count: number) => {
    const labels = batch(fleet);
    assert.equal(labels.length, count, 'the scenario raised another number of subjects');
    const open = await openLabels(fleet, labels);
    assert.ok(open.length <= most, `${open.length} of them were forwarded: ${open.join(', ')}`);
  }),
);

Then(
  "all {int} subjects of {string} are among the partner's open messages",
  fleetStep(async (fleet, count: number, module: string) => {
    const labels = (fleet.kept.get(`subjects:${module}`) as string[] | undefined) ?? [];
    assert.equal(labels.length, count, `the scenario raised ${labels.length} subjects of ${module}`);
    assert.deepEqual(await openLabels(fleet, labels), labels);
  }),
);

/** One generated report: which of the run's modules, and how long after the previous report. */
interface GeneratedReport {
  module: number;
  gapMs: number;
}

const report: fc.Arbitrary<GeneratedReport> = fc.record({
  module: fc.integer({ min: 0, max: 2 }),
  gapMs: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: 30_000 }),
    fc.integer({ min: 0, max: 5 * 60_000 }),
  ),
});

Then(
  "over generated event timings and module mixes no module exceeds 5 plus one per two minutes, each fresh module's first 5 pass, and suppressed counts the withheld reports \\({int} runs)",
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    const plane = await fleet.pbx(siteId, 'raise events at chosen PBX times');
    let run = 0;
    await assertLiveProperty(
      this,
      'forwarding stays within the allowance and suppressed counts the withheld reports',
      fc.asyncProperty(fc.array(report, { minLength: 1, maxLength: 16 }), async (reports) => {
        run++;
        // One message per module: its occurrences count the forwarded reports, its suppressed the withheld.
        const label = (m: number) => `throttle ${run}.${m}`;
        const forwardedAt = new Map<number, number[]>();
        const raised = new Map<number, number>();
        const seen = new Map<number, number>();
        for (const r of reports) {
          await plane.control.advanceClock({ ms: r.gapMs });
          const event = {
            module: fleet.moduleName(`Drossel ${run}.${r.module}`),
            subject: 'Temperatur zu hoch',
            severity: 'WARNING' as const,
          };
          const message = await fleet.raise(label(r.module), siteId, event);
          const count = (raised.get(r.module) ?? 0) + 1;
          raised.set(r.module, count);
          const item = (await fleet.openItems('partner', siteId, { evidence: false })).find((i) =>
            matches(i, message),
          );
          const occurrences = item?.occurrences ?? 0;
          if (occurrences > (seen.get(r.module) ?? 0)) {
            forwardedAt.set(r.module, [...(forwardedAt.get(r.module) ?? []), message.reportedAt.at(-1) ?? 0]);
          }
          seen.set(r.module, occurrences);
          if (count <= THROTTLE_BURST)
            assert.equal(occurrences, count, `report ${count} of a fresh module was withheld`);
        }
        for (const [module, times] of forwardedAt) {
          const excess = allowanceExcess(times, THROTTLE_BURST, THROTTLE_INTERVAL_MS);
          assert.equal(excess, null, `module ${module}: ${excess}`);
        }
        // EVENT-UNSPEC-THROTTLE-ALGORITHM: when the withheld counts travel is open, so the PBX clock
        // moves on in long steps with further reports until they arrive; then each must be exact.
        const waited = await awaitWithheldCounts(fleet, plane, [...raised.keys()].map(label));
        for (const tally of waited.tallies) {
          const problem = withheldProblem(tally, waited.rounds);
          assert.equal(problem, null, problem ?? '');
        }
      }),
      runs,
    );
  }),
);
