/**
 * Raising module messages and what the site list shows of them (features/fleet/attention-items.feature,
 * features/events/merging.feature).
 */
import assert from 'node:assert/strict';
import { type DataTable, Given, Then, When } from '@cucumber/cucumber';
import { asciiText } from './support/ascii-text.ts';
import { isEpochMs, timeMembers } from './support/epoch-ms.ts';
import { type FleetContext, type ItemView, matches, type SentMessage } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import { fleetSchemaErrors } from './support/fleet-schemas.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { FleetRole, SiteRole } from './support/fleet-target.ts';
import type { RaisedEvent } from './support/pbx-events.ts';
import { assertReportTime } from './support/report-time.ts';
import { limitProblem } from './support/text-limit.ts';

type Severity = RaisedEvent['severity'];

/** The module of the messages a scenario needs only as "an open module message". */
const FIXTURE_MODULE = 'Konformitätstest';

/** A message the scenario raises: the module name is made unique for the scenario. */
function event(
  fleet: FleetContext,
  module: string,
  subject: string,
  severity: string,
  extra: Partial<RaisedEvent> = {},
): RaisedEvent {
  return { module: fleet.moduleName(module), subject, severity: severity as Severity, ...extra };
}

/** The message's item in the partner's open list; fails the step when it is not listed. */
async function listedItem(
  fleet: FleetContext,
  label: string,
  caller: FleetRole = 'partner',
): Promise<ItemView> {
  const item = await fleet.findItem(caller, label);
  assert.ok(item, `"${label}" is not among the open messages of ${fleet.message(label).siteId}`);
  const message = fleet.message(label);
  message.id = item.id;
  message.shown = item;
  return item;
}

Given(
  'an open module message {string} on {fleetSite}',
  fleetStep(async (fleet, label: string, role: SiteRole) => {
    const siteId = await fleet.siteId(role);
    if (await fleet.canRaise(siteId)) {
      await fleet.raise(label, siteId, event(fleet, FIXTURE_MODULE, label, 'WARNING'), { unthrottled: true });
      await listedItem(fleet, label);
      return;
    }
    const taken = new Set([...fleet.messages.values()].map((m) => m.id));
    const item = (await fleet.openItems('partner', siteId)).find((i) => !taken.has(i.id));
    if (!item)
      notVerifiable(`${siteId} shows no open message, and the target has no control plane to raise one`);
    fleet.adopt(label, siteId, item);
  }),
);

Given(
  'an open module message {string} on {fleetSite} as the other partner sees it',
  fleetStep(async (fleet, label: string, role: SiteRole) => {
    const siteId = await fleet.siteId(role);
    if (await fleet.canRaise(siteId)) {
      await fleet.raise(label, siteId, event(fleet, FIXTURE_MODULE, label, 'WARNING'), { unthrottled: true });
      await listedItem(fleet, label, 'otherPartner');
      return;
    }
    const item = (await fleet.openItems('otherPartner', siteId))[0];
    if (!item) notVerifiable(`${siteId} shows the other partner no open message, and nothing can raise one`);
    fleet.adopt(label, siteId, item);
  }),
);

When(
  'the module {string} reports {string} with severity {string} on {fleetSite}',
  fleetStep(async (fleet, module: string, subject: string, severity: string, role: SiteRole) => {
    await fleet.raise(subject, await fleet.siteId(role), event(fleet, module, subject, severity), {
      unthrottled: true,
    });
  }),
);

When(
  'the module {string} reports {string} with severity {string} on {fleetSite} as {string}',
  fleetStep(
    async (fleet, module: string, subject: string, severity: string, role: SiteRole, label: string) => {
      await fleet.raise(label, await fleet.siteId(role), event(fleet, module, subject, severity), {
        unthrottled: true,
      });
    },
  ),
);

When(
  'the module {string} reports {string} with severity {string} on {fleetSite} {int} time(s)',
  fleetStep(
    async (fleet, module: string, subject: string, severity: string, role: SiteRole, times: number) => {
      const siteId = await fleet.siteId(role);
      for (let i = 0; i < times; i++) {
        await fleet.raise(subject, siteId, event(fleet, module, subject, severity), { unthrottled: true });
      }
    },
  ),
);

When(
  'the module {string} with the identifier {string} reports {string} with severity {string} on {fleetSite}',
  fleetStep(
    async (fleet, module: string, moduleId: string, subject: string, severity: string, role: SiteRole) => {
      const extra = { moduleId: `${moduleId}.${fleet.tag}` };
      await fleet.raise(subject, await fleet.siteId(role), event(fleet, module, subject, severity, extra));
    },
  ),
);

When(
  'the module {string} reports {string} with severity {string} and the description {string} on {fleetSite}',
  fleetStep(
    async (fleet, module: string, subject: string, severity: string, description: string, role: SiteRole) => {
      await fleet.raise(
        subject,
        await fleet.siteId(role),
        event(fleet, module, subject, severity, { description }),
      );
    },
  ),
);

When(
  'a module reports a subject of {int} ASCII characters on {fleetSite}',
  fleetStep(async (fleet, length: number, role: SiteRole) => {
    await fleet.raise(
      'long subject',
      await fleet.siteId(role),
      event(fleet, 'Lange Betreffe', asciiText(length), 'INFO'),
    );
  }),
);

When(
  'a module reports a description of {int} ASCII characters on {fleetSite}',
  fleetStep(async (fleet, length: number, role: SiteRole) => {
    const extra = { description: asciiText(length, 1) };
    await fleet.raise(
      'long description',
      await fleet.siteId(role),
      event(fleet, 'Lange Texte', 'Beschreibung', 'INFO', extra),
    );
  }),
);

Then(
  'the listed subject is kept unchanged',
  fleetStep(async (fleet) => {
    const item = await listedItem(fleet, 'long subject');
    assert.equal(item.subject, fleet.message('long subject').subject);
  }),
);

Then(
  'the listed subject is cut to {int} characters',
  fleetStep(async (fleet, limit: number) => {
    const item = await listedItem(fleet, 'long subject');
    const problem = limitProblem(item.subject, fleet.message('long subject').subject, limit);
    assert.equal(problem, null, problem ?? '');
  }),
);

Then(
  'the listed description is kept unchanged',
  fleetStep(async (fleet) => {
    const item = await listedItem(fleet, 'long description');
    assert.equal(item.description, fleet.message('long description').description);
  }),
);

Then(
  'the listed description is cut to {int} characters',
  fleetStep(async (fleet, limit: number) => {
    const item = await listedItem(fleet, 'long description');
    const sent = fleet.message('long description').description ?? '';
    const problem = limitProblem(item.description ?? undefined, sent, limit);
    assert.equal(problem, null, problem ?? '');
  }),
);

Then(
  'the message {string} is listed with the severity {string}',
  fleetStep(async (fleet, label: string, severity: string) => {
    assert.equal((await listedItem(fleet, label)).severity, severity);
  }),
);

Then(
  "the message {string} is listed with the module's display name",
  fleetStep(async (fleet, label: string) => {
    const message = fleet.message(label);
    const items = await fleet.openItems('partner', message.siteId);
    const item = items.find((i) => i.subject === message.subject && i.module === message.module);
    assert.ok(
      item,
      `no open message "${label}" has module "${message.module}" (${JSON.stringify(items.map((i) => i.module))})`,
    );
  }),
);

Then(
  "the message {string} is listed with the module's identifier as moduleId",
  fleetStep(async (fleet, label: string) => {
    assert.equal((await listedItem(fleet, label)).moduleId, fleet.message(label).moduleId);
  }),
);

Then(
  'the message {string} is listed without a moduleId',
  fleetStep(async (fleet, label: string) => {
    const item = await listedItem(fleet, label);
    assert.ok(
      item.moduleId === undefined || item.moduleId === null,
      `moduleId is ${JSON.stringify(item.moduleId)}`,
    );
  }),
);

Then(
  'the message {string} is listed with the description it was sent with',
  fleetStep(async (fleet, label: string) => {
    assert.equal((await listedItem(fleet, label)).description, fleet.message(label).description);
  }),
);

Then(
  'the message {string} is listed without a description',
  fleetStep(async (fleet, label: string) => {
    const item = await listedItem(fleet, label);
    assert.ok(
      item.description === undefined || item.description === null,
      `description is ${JSON.stringify(item.description)}`,
    );
  }),
);

Then(
  'the message {string} shows {int} occurrence(s)',
  fleetStep(async (fleet, label: string, occurrences: number) => {
    assert.equal((await listedItem(fleet, label)).occurrences, occurrences, 'occurrences');
  }),
);

Then(
  'the message {string} shows {int} suppressed',
  fleetStep(async (fleet, label: string, suppressed: number) => {
    assert.equal((await listedItem(fleet, label)).suppressed, suppressed, 'suppressed');
  }),
);

When(
  'the PBX clock of {fleetSite} moves on by {int} minute(s)',
  fleetStep(async (fleet, role: SiteRole, minutes: number) => {
    const plane = await fleet.pbx(await fleet.siteId(role), 'advance the PBX clock');
    await plane.control.advanceClock({ ms: minutes * 60_000 });
  }),
);

/** The PBX times of a message's reports; only known where a PBX control plane raised them. */
function reportTimes(message: SentMessage): [number, number][] {
  if (message.reportedWithin.length === 0)
    notVerifiable(`"${message.label}" was not raised on a PBX of the target`);
  return message.reportedWithin;
}

Then(
  'the message {string} has firstAt equal to the PBX clock at its first report',
  fleetStep(async (fleet, label: string) => {
    const item = await listedItem(fleet, label);
    assertReportTime(item.firstAt, reportTimes(fleet.message(label))[0], 'firstAt');
  }),
);

Then(
  'the message {string} has lastAt equal to the PBX clock at its latest report',
  fleetStep(async (fleet, label: string) => {
    const item = await listedItem(fleet, label);
    assertReportTime(item.lastAt, reportTimes(fleet.message(label)).at(-1), 'lastAt');
  }),
);

/** How far apart the PBX and controller clocks must be for a time to tell which clock it came from. */
const CLEAR_CLOCK_GAP_MS = 60_000;

Then(
  "the PBX clock of {fleetSite} is more than a minute away from the controller's clock",
  fleetStep(async (fleet, role: SiteRole) => {
    // FLEET-ITEM-FIRSTAT: a guard, so firstAt equal to the PBX clock cannot also be the controller's
    // time. Both clocks are read at once; on running clocks the read's own duration is allowed for.
    const control = fleet.control("read the controller's clock");
    const plane = await fleet.pbx(await fleet.siteId(role), 'read the PBX clock');
    const started = Date.now();
    const [pbxNow, controllerNow] = await Promise.all([
      plane.control.now().then((c) => c.now),
      control.now().then((c) => c.now),
    ]);
    const readMs = Date.now() - started;
    const gap = Math.abs(pbxNow - controllerNow);
    assert.ok(
      gap > CLEAR_CLOCK_GAP_MS + readMs,
      `the PBX clock (${new Date(pbxNow).toISOString()}) and the controller's (${new Date(controllerNow).toISOString()}) are only ${gap} ms apart`,
    );
  }),
);

Then(
  "every time in the controller's answer is an integer count of milliseconds since 1970",
  fleetStep(async (fleet) => {
    const res = fleet.last;
    assert.ok(res?.json !== undefined, 'the last answer has no JSON body');
    const times = timeMembers(res.json);
    assert.ok(times.length > 0, 'the answer holds no time');
    for (const { path, value } of times) assert.ok(isEpochMs(value), `${path} is ${JSON.stringify(value)}`);
  }),
);

When(
  'these module messages are reported on {fleetSite}, each some minutes after the one before:',
  fleetStep(async (fleet, role: SiteRole, table: DataTable) => {
    const siteId = await fleet.siteId(role);
    const plane = await fleet.pbx(siteId, 'report messages at chosen PBX times');
    for (const row of table.hashes()) {
      await plane.control.advanceClock({ ms: Number(row['minutes']) * 60_000 });
      await fleet.raise(
        row['subject'] ?? '',
        siteId,
        event(fleet, row['module'] ?? '', row['subject'] ?? '', row['severity'] ?? ''),
      );
    }
  }),
);

/** The scenario's messages on a site as the partner's open list shows them, in list order. */
async function scenarioItems(fleet: FleetContext, role: SiteRole): Promise<string[]> {
  const siteId = await fleet.siteId(role);
  const mine = [...fleet.messages.values()].filter((m) => m.siteId === siteId);
  return (await fleet.openItems('partner', siteId)).flatMap((item) => {
    const message = mine.find((m) => matches(item, m));
    return message ? [message.label] : [];
  });
}

Then(
  "of the scenario's messages {fleetSite} lists {names} in this order",
  fleetStep(async (fleet, role: SiteRole, labels: string[]) => {
    assert.deepEqual(await scenarioItems(fleet, role), labels);
  }),
);

Then(
  "of the scenario's messages {fleetSite} lists exactly {names} as open",
  fleetStep(async (fleet, role: SiteRole, labels: string[]) => {
    assert.deepEqual([...(await scenarioItems(fleet, role))].sort(), [...labels].sort());
  }),
);

Then(
  'every open message in the site list is an attention item as the schema describes it',
  fleetStep(async (fleet) => {
    const sites = (fleet.last?.json ?? []) as { id: string; attentionEvents?: unknown[] }[];
    let count = 0;
    for (const site of sites) {
      for (const item of site.attentionEvents ?? []) {
        count++;
        const errors = fleetSchemaErrors('attention item', item);
        assert.equal(errors, null, `${site.id}: ${errors}`);
      }
    }
    assert.ok(count > 0, 'the site list shows no open message');
  }),
);

Then(
  'every open message in the site list has the severity {names}',
  fleetStep(async (fleet, severities: string[]) => {
    const sites = (fleet.last?.json ?? []) as { id: string; attentionEvents?: ItemView[] }[];
    for (const site of sites) {
      for (const item of site.attentionEvents ?? []) {
        assert.ok(
          severities.includes(item.severity),
          `${site.id}/${item.id} has the severity ${item.severity}`,
        );
      }
    }
  }),
);

When(
  '{fleetCaller} notes the id of {string}',
  fleetStep(async (fleet, caller: FleetRole, label: string) => {
    fleet.kept.set(`noted:${label}`, (await listedItem(fleet, label, caller)).id);
  }),
);

Then(
  '{fleetSite} lists {string} once, under the noted id',
  fleetStep(async (fleet, role: SiteRole, label: string) => {
    const message = fleet.message(label);
    const items = (await fleet.openItems('partner', await fleet.siteId(role))).filter((i) =>
      matches(i, message),
    );
    assert.equal(items.length, 1, `"${label}" is listed ${items.length} times`);
    assert.equal(items[0]?.id, fleet.kept.get(`noted:${label}`), 'the id changed');
  }),
);

Then(
  '{fleetSite} lists {names} as {int} separate items',
  fleetStep(async (fleet, role: SiteRole, labels: string[], count: number) => {
    const items = await fleet.openItems('partner', await fleet.siteId(role));
    const ids = labels.map((label) => {
      const found = items.filter((i) => matches(i, fleet.message(label)));
      assert.equal(found.length, 1, `"${label}" is listed ${found.length} times`);
      return found[0]?.id;
    });
    assert.equal(new Set(ids).size, count, `the ids are ${JSON.stringify(ids)}`);
  }),
);

Then(
  '{string} and {string} are listed once each, as separate items',
  fleetStep(async (fleet, first: string, second: string) => {
    for (const label of [first, second]) {
      const message = fleet.message(label);
      const found = (await fleet.openItems('partner', message.siteId)).filter((i) => matches(i, message));
      assert.equal(found.length, 1, `"${label}" is listed ${found.length} times on ${message.siteId}`);
    }
  }),
);
