/**
 * Bounded live properties over attention items (features/fleet/attention-items.feature,
 * features/events/merging.feature). Every run uses modules of its own, so runs never merge into each
 * other's items and each module starts with a fresh forwarding limit.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { asciiText } from './support/ascii-text.ts';
import { isEpochMs } from './support/epoch-ms.ts';
import { type FleetContext, type ItemView, matches } from './support/fleet-context.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { PbxPlane } from './support/fleet-target.ts';
import type { RaisedEvent } from './support/pbx-events.ts';
import { assertReportTime } from './support/report-time.ts';
import { limitProblem } from './support/text-limit.ts';

const SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
const RANK: Record<string, number> = { INFO: 0, WARNING: 1, ERROR: 2, CRITICAL: 3 };

/** The partner's own site and its PBX: properties set the PBX clock. */
async function ownPbx(fleet: FleetContext, purpose: string): Promise<{ siteId: string; plane: PbxPlane }> {
  const siteId = await fleet.siteId('own');
  return { siteId, plane: await fleet.pbx(siteId, purpose) };
}

/** A per-run counter, so every run names its own modules. */
function runCounter(): () => number {
  let run = 0;
  return () => ++run;
}

async function listed(fleet: FleetContext, label: string): Promise<ItemView | undefined> {
  const message = fleet.message(label);
  return (await fleet.openItems('partner', message.siteId, { evidence: false })).find((i) =>
    matches(i, message),
  );
}

Then(
  'for generated severities and report times the open messages are ordered by severity, then recency \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const { siteId, plane } = await ownPbx(fleet, 'report messages at chosen PBX times');
    const next = runCounter();
    const report = fc.record({
      severity: fc.constantFrom(...SEVERITIES),
      gapMs: fc.integer({ min: 1, max: 900_000 }),
    });
    await assertLiveProperty(
      this,
      'attentionEvents are ordered by severity, then recency',
      fc.asyncProperty(fc.array(report, { minLength: 2, maxLength: 6 }), async (reports) => {
        const run = next();
        const sent: { label: string; severity: string; at: number }[] = [];
        for (const [i, r] of reports.entries()) {
          await plane.control.advanceClock({ ms: r.gapMs });
          const label = `order ${run}.${i}`;
          const module = fleet.moduleName(`Reihenfolge ${run}.${i}`);
          const message = await fleet.raise(label, siteId, {
            module,
            subject: `Meldung ${i}`,
            severity: r.severity,
          });
          sent.push({ label, severity: r.severity, at: message.reportedAt.at(-1) ?? 0 });
        }
        const expected = [...sent]
          .sort((a, b) => (RANK[b.severity] ?? 0) - (RANK[a.severity] ?? 0) || b.at - a.at)
          .map((s) => s.label);
        const shown = (await fleet.openItems('partner', siteId, { evidence: false })).flatMap((item) => {
          const hit = sent.find((s) => matches(item, fleet.message(s.label)));
          return hit ? [hit.label] : [];
        });
        assert.deepEqual(shown, expected);
      }),
      runs,
    );
  }),
);

/** Shared body of the subject and description limit properties. */
async function limitProperty(
  world: PbxWorld,
  fleet: FleetContext,
  field: 'subject' | 'description',
  limit: number,
  maxLength: number,
  runs: number,
): Promise<void> {
  const siteId = await fleet.siteId('own');
  await fleet.requireRaising(siteId);
  const next = runCounter();
  const lengths = fc.oneof(
    fc.integer({ min: limit - 3, max: limit + 3 }),
    fc.integer({ min: 1, max: maxLength }),
  );
  await assertLiveProperty(
    world,
    `${field}s are kept up to ${limit} characters and cut to ${limit} beyond`,
    fc.asyncProperty(lengths, fc.nat(1000), async (length, salt) => {
      const run = next();
      const text = asciiText(length, salt);
      const label = `${field} ${run}`;
      const event: RaisedEvent = {
        module: fleet.moduleName(`Grenzen ${field} ${run}`),
        subject: field === 'subject' ? text : 'Beschreibung',
        severity: 'INFO',
        ...(field === 'description' ? { description: text } : {}),
      };
      await fleet.raise(label, siteId, event);
      const item = await listed(fleet, label);
      assert.ok(item, `the message of ${length} characters is not listed`);
      const problem = limitProblem(item[field] ?? undefined, text, limit);
      assert.equal(problem, null, problem ?? '');
    }),
    runs,
  );
}

Then(
  'generated ASCII subjects of up to {int} characters are kept up to {int} characters and cut to {int} beyond \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, max: number, limit: number, _cut: number, runs: number) {
    await limitProperty(this, fleet, 'subject', limit, max, runs);
  }),
);

Then(
  'generated ASCII descriptions of up to {int} characters are kept up to {int} characters and cut to {int} beyond \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, max: number, limit: number, _cut: number, runs: number) {
    await limitProperty(this, fleet, 'description', limit, max, runs);
  }),
);

Then(
  'for generated gaps between reports of one message firstAt and lastAt are the PBX times of its first and last report \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const { siteId, plane } = await ownPbx(fleet, 'report at chosen PBX times');
    const next = runCounter();
    await assertLiveProperty(
      this,
      'firstAt and lastAt follow the PBX clock',
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3_600_000 }), { minLength: 1, maxLength: 7 }),
        async (gaps) => {
          const run = next();
          const label = `times ${run}`;
          const event: RaisedEvent = {
            module: fleet.moduleName(`Zeiten ${run}`),
            subject: 'Amt gestört',
            severity: 'ERROR',
          };
          for (const gap of gaps) {
            await plane.control.advanceClock({ ms: gap });
            await fleet.raise(label, siteId, event, { unthrottled: true });
          }
          const times = fleet.message(label).reportedWithin;
          const item = await listed(fleet, label);
          assert.ok(item, 'the message is not listed');
          assertReportTime(item.firstAt, times[0], 'firstAt');
          assertReportTime(item.lastAt, times.at(-1), 'lastAt');
        },
      ),
      runs,
    );
  }),
);

Then(
  'for a generated number of reports of one message its occurrences equal that number \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    const next = runCounter();
    await assertLiveProperty(
      this,
      'occurrences count the reports',
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), async (count) => {
        const run = next();
        const label = `count ${run}`;
        const event: RaisedEvent = {
          module: fleet.moduleName(`Zähler ${run}`),
          subject: 'Amt gestört',
          severity: 'ERROR',
        };
        for (let i = 0; i < count; i++) await fleet.raise(label, siteId, event, { unthrottled: true });
        assert.equal((await listed(fleet, label))?.occurrences, count);
      }),
      runs,
    );
  }),
);

Then(
  'for generated PBX clock times the item times are those instants in milliseconds since 1970 \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const { siteId, plane } = await ownPbx(fleet, 'set the PBX clock');
    const next = runCounter();
    await assertLiveProperty(
      this,
      'item times are the PBX instants in ms since 1970',
      fc.asyncProperty(fc.integer({ min: 0, max: 30 * 86_400_000 }), async (advance) => {
        const run = next();
        await plane.control.advanceClock({ ms: advance });
        const label = `instant ${run}`;
        const event: RaisedEvent = {
          module: fleet.moduleName(`Zeitpunkt ${run}`),
          subject: 'Uhrzeit',
          severity: 'INFO',
        };
        const at = (await fleet.raise(label, siteId, event)).reportedWithin[0];
        const item = await listed(fleet, label);
        assert.ok(item, 'the message is not listed');
        assert.ok(isEpochMs(item.firstAt) && isEpochMs(item.lastAt), 'the times are not ms since 1970');
        assertReportTime(item.firstAt, at, 'firstAt');
        assertReportTime(item.lastAt, at, 'lastAt');
      }),
      runs,
    );
  }),
);

// --- merging ------------------------------------------------------------------------------------

Then(
  'generated repetitions of one message merge into one item whose id stays and whose occurrences grow \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    const next = runCounter();
    await assertLiveProperty(
      this,
      'repeated reports merge into one item with a stable id',
      fc.asyncProperty(fc.integer({ min: 2, max: 9 }), async (count) => {
        const run = next();
        const label = `merge ${run}`;
        const event: RaisedEvent = {
          module: fleet.moduleName(`Zusammenführen ${run}`),
          subject: 'Amt gestört',
          severity: 'ERROR',
        };
        let firstId: number | undefined;
        for (let k = 1; k <= count; k++) {
          await fleet.raise(label, siteId, event, { unthrottled: true });
          const items = (await fleet.openItems('partner', siteId, { evidence: false })).filter((i) =>
            matches(i, fleet.message(label)),
          );
          assert.equal(items.length, 1, `after ${k} reports the message is listed ${items.length} times`);
          firstId ??= items[0]?.id;
          assert.equal(items[0]?.id, firstId, `the id changed after ${k} reports`);
          assert.equal(items[0]?.occurrences, k, `occurrences after ${k} reports`);
        }
      }),
      runs,
    );
  }),
);

Then(
  'generated mixes of modules and subjects give exactly one item per distinct pair \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    const next = runCounter();
    const pair = fc.record({
      module: fc.integer({ min: 0, max: 2 }),
      subject: fc.integer({ min: 0, max: 2 }),
    });
    await assertLiveProperty(
      this,
      'one item per distinct module and subject',
      fc.asyncProperty(fc.array(pair, { minLength: 1, maxLength: 10 }), async (reports) => {
        const run = next();
        const counts = new Map<string, number>();
        for (const r of reports) {
          const label = `mix ${run}: ${r.module}/${r.subject}`;
          const event: RaisedEvent = {
            module: fleet.moduleName(`Mischung ${run}.${r.module}`),
            subject: `Betreff ${r.subject}`,
            severity: 'WARNING',
          };
          await fleet.raise(label, siteId, event, { unthrottled: true });
          counts.set(label, (counts.get(label) ?? 0) + 1);
        }
        const open = await fleet.openItems('partner', siteId, { evidence: false });
        const ids = new Set<number>();
        for (const [label, count] of counts) {
          const found = open.filter((i) => matches(i, fleet.message(label)));
          assert.equal(found.length, 1, `"${label}" is listed ${found.length} times`);
          assert.equal(found[0]?.occurrences, count, `occurrences of "${label}"`);
          ids.add(found[0]?.id ?? -1);
        }
        assert.equal(ids.size, counts.size, 'two pairs share an item');
      }),
      runs,
    );
  }),
);

Then(
  'over generated reports, acknowledgements and reopenings every message keeps the id it got first \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    const next = runCounter();
    const action = fc.record({
      kind: fc.constantFrom('report', 'report', 'acknowledge'),
      message: fc.integer({ min: 0, max: 2 }),
    });
    await assertLiveProperty(
      this,
      'ids stay across repetitions, acknowledgements and reopenings',
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
        const run = next();
        const firstIds = new Map<string, number>();
        for (const a of actions) {
          const label = `stable ${run}.${a.message}`;
          if (a.kind === 'report') {
            const event: RaisedEvent = {
              module: fleet.moduleName(`Stabil ${run}`),
              subject: `Meldung ${a.message}`,
              severity: 'ERROR',
            };
            await fleet.raise(label, siteId, event, { unthrottled: true });
          } else if (firstIds.has(label)) {
            const res = await fleet.acknowledge('partner', siteId, firstIds.get(label) ?? 0, '{}', {
              evidence: false,
            });
            assert.equal(res.status, 200, `acknowledging "${label}" answered ${res.status}`);
          }
          const open = await fleet.openItems('partner', siteId, { evidence: false });
          for (const [l] of [...fleet.messages].filter(([l]) => l.startsWith(`stable ${run}.`))) {
            const item = open.find((i) => matches(i, fleet.message(l)));
            if (!item) continue;
            const first = firstIds.get(l) ?? item.id;
            firstIds.set(l, first);
            assert.equal(item.id, first, `"${l}" changed its id`);
          }
        }
      }),
      runs,
    );
  }),
);
