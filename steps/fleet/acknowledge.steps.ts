/** Acknowledging and the history (features/fleet/acknowledge.feature, history.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { asciiText } from './support/ascii-text.ts';
import type { FleetContext } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import { fleetSchemaErrors } from './support/fleet-schemas.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { FleetRole, SiteRole } from './support/fleet-target.ts';

/** A history entry as the harness reads it (schemas/fleet/history-entry.schema.json). */
export interface HistoryEntry {
  kind?: unknown;
  actor?: unknown;
  channel?: unknown;
  createdAt?: unknown;
  siteName?: unknown;
  attention?: { id?: unknown; module?: unknown; subject?: unknown; severity?: unknown; comment?: unknown };
  [field: string]: unknown;
}

/** Acknowledges a message as `caller` and keeps the answer (the result steps read `fleet.last`). */
async function acknowledge(fleet: FleetContext, caller: FleetRole, label: string, body: string) {
  const message = fleet.message(label);
  const id = await fleet.itemId(label);
  const res = await fleet.acknowledge(caller, message.siteId, id, body);
  if (res.status === 200) fleet.kept.set(`ack:${label}`, res.json);
  return res;
}

When(
  '{fleetCaller} acknowledges {string}',
  fleetStep(async (fleet, caller: FleetRole, label: string) => {
    await acknowledge(fleet, caller, label, '{}');
  }),
);

When(
  '{fleetCaller} acknowledges {string} with the body {string}',
  fleetStep(async (fleet, caller: FleetRole, label: string, body: string) => {
    await acknowledge(fleet, caller, label, body);
  }),
);

When(
  '{fleetCaller} acknowledges {string} with the comment {string}',
  fleetStep(async (fleet, caller: FleetRole, label: string, comment: string) => {
    await acknowledge(fleet, caller, label, JSON.stringify({ comment }));
  }),
);

When(
  '{fleetCaller} acknowledges {string} with a comment of {int} ASCII characters',
  fleetStep(async (fleet, caller: FleetRole, label: string, length: number) => {
    const comment = asciiText(length, 2);
    fleet.kept.set('comment', comment);
    await acknowledge(fleet, caller, label, JSON.stringify({ comment }));
  }),
);

When(
  '{fleetCaller} acknowledges {string} under the path of {fleetSite}',
  fleetStep(async (fleet, caller: FleetRole, label: string, role: SiteRole) => {
    const id = await fleet.itemId(label);
    const siteId = await fleet.siteId(role);
    assert.notEqual(siteId, fleet.message(label).siteId, 'both site roles name the same site');
    await fleet.acknowledge(caller, siteId, id);
  }),
);

/** The last answer as an acknowledge result. */
function lastResult(fleet: FleetContext): Record<string, unknown> {
  const res = fleet.last;
  assert.ok(res, 'nothing was acknowledged');
  assert.equal(res.status, 200, `the acknowledge answered ${res.status}: ${res.text.slice(0, 200)}`);
  const errors = fleetSchemaErrors('acknowledge result', res.json);
  assert.equal(errors, null, `the acknowledge result does not match its schema: ${errors}`);
  return res.json as Record<string, unknown>;
}

Then(
  'the acknowledge result names the attentionId and the siteId of {string}',
  fleetStep(async (fleet, label: string) => {
    const result = lastResult(fleet);
    const message = fleet.message(label);
    assert.equal(result['attentionId'], message.id, 'attentionId');
    assert.equal(result['siteId'], message.siteId, 'siteId');
  }),
);

Then(
  'the acknowledge result says alreadyAcknowledged {word}',
  fleetStep(async (fleet, value: string) => {
    assert.equal(lastResult(fleet)['alreadyAcknowledged'], value === 'true', 'alreadyAcknowledged');
  }),
);

Then(
  "{string} is not among {fleetCaller}'s open messages",
  fleetStep(async (fleet, label: string, caller: FleetRole) => {
    const found = await fleet.findItem(caller, label);
    assert.equal(found, undefined, `"${label}" is open for ${caller} (id ${found?.id})`);
  }),
);

Then(
  "{string} is among {fleetCaller}'s open messages",
  fleetStep(async (fleet, label: string, caller: FleetRole) => {
    const found = await fleet.findItem(caller, label);
    assert.ok(found, `"${label}" is not open for ${caller}`);
  }),
);

Then(
  "{string} is among {fleetCaller}'s open messages under the same id as before",
  fleetStep(async (fleet, label: string, caller: FleetRole) => {
    const before = fleet.message(label).id;
    assert.notEqual(before, undefined, `"${label}" had no id before`);
    const found = await fleet.findItem(caller, label);
    assert.ok(found, `"${label}" is not open for ${caller} again`);
    assert.equal(found.id, before, 'the reopened message has another id');
  }),
);

Given(
  '{fleetSite} has no open message for the partner',
  fleetStep(async (fleet, role: SiteRole) => {
    const siteId = await fleet.siteId(role);
    // The scenarios that clear a site raise fresh messages next; without that, clearing only loses data.
    await fleet.requireRaising(siteId);
    for (const item of await fleet.openItems('partner', siteId)) {
      const res = await fleet.acknowledge('partner', siteId, item.id);
      assert.equal(res.status, 200, `acknowledging the earlier message ${item.id} answered ${res.status}`);
    }
  }),
);

// --- history -----------------------------------------------------------------------------------

/** The caller's history of a site as a list; fails the step on a non-2xx answer or a list off the schema. */
async function historyOf(fleet: FleetContext, caller: FleetRole, siteId: string): Promise<HistoryEntry[]> {
  const res = await fleet.history(caller, siteId);
  assert.ok(res.status >= 200 && res.status < 300, `the history of ${siteId} answered ${res.status}`);
  const errors = fleetSchemaErrors('history list', res.json);
  assert.equal(errors, null, `the history does not match its schema: ${errors}`);
  return res.json as HistoryEntry[];
}

/** The acknowledgement entries of a message (by its item id). */
async function entriesOf(fleet: FleetContext, caller: FleetRole, label: string): Promise<HistoryEntry[]> {
  const message = fleet.message(label);
  const id = message.id ?? (await fleet.itemId(label));
  return (await historyOf(fleet, caller, message.siteId)).filter(
    (e) => e.kind === 'ATTENTION_ACK' && e.attention?.id === id,
  );
}

async function onlyEntry(
  fleet: FleetContext,
  label: string,
  caller: FleetRole = 'partner',
): Promise<HistoryEntry> {
  const entries = await entriesOf(fleet, caller, label);
  assert.equal(entries.length, 1, `the history holds ${entries.length} entries for "${label}"`);
  return entries[0] as HistoryEntry;
}

Then(
  'the history of {fleetSite} holds exactly {int} entry/entries for {string}',
  fleetStep(async (fleet, role: SiteRole, count: number, label: string) => {
    assert.equal(fleet.message(label).siteId, await fleet.siteId(role), `"${label}" is on another site`);
    const entries = await entriesOf(fleet, 'partner', label);
    assert.equal(entries.length, count, `history entries for "${label}"`);
  }),
);

Then(
  "{fleetCaller}'s history of {fleetSite} has no entry for {string}",
  fleetStep(async (fleet, caller: FleetRole, _role: SiteRole, label: string) => {
    assert.equal((await entriesOf(fleet, caller, label)).length, 0, `${caller}'s history shows "${label}"`);
  }),
);

function hasComment(entries: HistoryEntry[], comment: string): boolean {
  return entries.some((e) => e.attention?.comment === comment);
}

Then(
  "{fleetCaller}'s history of {fleetSite} has an entry with the comment {string}",
  fleetStep(async (fleet, caller: FleetRole, role: SiteRole, comment: string) => {
    const entries = await historyOf(fleet, caller, await fleet.siteId(role));
    assert.ok(hasComment(entries, comment), `no entry has the comment "${comment}"`);
  }),
);

Then(
  "{fleetCaller}'s history of {fleetSite} has no entry with the comment {string}",
  fleetStep(async (fleet, caller: FleetRole, role: SiteRole, comment: string) => {
    const entries = await historyOf(fleet, caller, await fleet.siteId(role));
    assert.ok(
      !hasComment(entries, comment),
      `an entry of another partner access has the comment "${comment}"`,
    );
  }),
);

Then(
  'the history entry of {string} is an acknowledgement entry as the schema describes it',
  fleetStep(async (fleet, label: string) => {
    const entry = await onlyEntry(fleet, label);
    const errors = fleetSchemaErrors('history entry', entry);
    assert.equal(errors, null, `the entry does not match the schema: ${errors}`);
  }),
);

Then(
  "the history entry of {string} carries the message's id, module, subject and severity",
  fleetStep(async (fleet, label: string) => {
    const entry = await onlyEntry(fleet, label);
    const message = fleet.message(label);
    const shown = message.shown;
    assert.equal(entry.attention?.id, message.id, 'attention.id');
    assert.equal(entry.attention?.module, shown?.module ?? message.module, 'attention.module');
    assert.equal(entry.attention?.subject, shown?.subject ?? message.subject, 'attention.subject');
    assert.equal(entry.attention?.severity, shown?.severity ?? message.severity, 'attention.severity');
  }),
);

Then(
  'the history entry of {string} has the channel {string}',
  fleetStep(async (fleet, label: string, channel: string) => {
    assert.equal((await onlyEntry(fleet, label)).channel, channel, 'channel');
  }),
);

Then(
  'the history entry of {string} has the comment {string}',
  fleetStep(async (fleet, label: string, comment: string) => {
    assert.equal((await onlyEntry(fleet, label)).attention?.comment, comment, 'attention.comment');
  }),
);

Then(
  'the history entry of {string} has the comment null',
  fleetStep(async (fleet, label: string) => {
    assert.equal((await onlyEntry(fleet, label)).attention?.comment, null, 'attention.comment');
  }),
);

Then(
  'the history entry of {string} has that comment',
  fleetStep(async (fleet, label: string) => {
    assert.equal(
      (await onlyEntry(fleet, label)).attention?.comment,
      fleet.kept.get('comment'),
      'attention.comment',
    );
  }),
);

/** Tolerance between `createdAt` and `acknowledgedAt`, both "the time of the acknowledgement". */
const SAME_MOMENT_MS = 1_000;

Then(
  "the history entry of {string} has the site's name and the time of the acknowledgement",
  fleetStep(async (fleet, label: string) => {
    const entry = await onlyEntry(fleet, label);
    const message = fleet.message(label);
    const site = await fleet.site('partner', message.siteId);
    assert.equal(entry.siteName, site?.displayName, 'siteName');
    const result = fleet.kept.get(`ack:${label}`) as { acknowledgedAt?: unknown } | undefined;
    assert.equal(typeof entry.createdAt, 'number', 'createdAt');
    assert.equal(typeof result?.acknowledgedAt, 'number', 'acknowledgedAt of the result');
    const apart = Math.abs((entry.createdAt as number) - (result?.acknowledgedAt as number));
    assert.ok(apart <= SAME_MOMENT_MS, `createdAt is ${apart} ms away from acknowledgedAt`);
  }),
);

Then(
  'the history entry of {string} has the actor {string}',
  fleetStep(async (fleet, label: string, actor: string) => {
    assert.equal((await onlyEntry(fleet, label)).actor, actor, 'actor');
  }),
);

Then(
  "the history entry of {string} has the channel {string} and the partner's account name as actor",
  fleetStep(async (fleet, label: string, channel: string) => {
    const name = fleet.account('partner').name;
    if (name === undefined) notVerifiable("the target names no display name for the partner's account");
    const entry = await onlyEntry(fleet, label);
    assert.equal(entry.channel, channel, 'channel');
    assert.equal(entry.actor, name, 'actor');
  }),
);

Given(
  "the fleet operator renames the partner's account to {string}",
  fleetStep(async (fleet, name: string) => {
    const control = fleet.control("rename the partner's account");
    const id = fleet.account('partner').id;
    if (!id) notVerifiable("the target names no control-plane id for the partner's account");
    await control.updateAccount({ accountId: id, name });
  }),
);

Then(
  'generated comments of up to 1000 characters are accepted and stored for the history \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    // Within 1000 UTF-16 units is within 1000 code points too (FLEET-UNSPEC-CHARACTER-COUNT).
    const comment = fc.oneof(
      fc.integer({ min: 990, max: 1000 }).map((n) => asciiText(n, n)),
      fc.string({ unit: 'grapheme', maxLength: 1000 }).filter((s) => s.length <= 1000),
    );
    let run = 0;
    await assertLiveProperty(
      this,
      'comments of up to 1000 characters are stored',
      fc.asyncProperty(comment, async (text) => {
        run++;
        const label = `comment ${run}`;
        await fleet.raise(label, siteId, {
          module: fleet.moduleName(`Kommentar ${run}`),
          subject: 'Bitte prüfen',
          severity: 'INFO',
        });
        const id = await fleet.itemId(label);
        const res = await fleet.acknowledge('partner', siteId, id, JSON.stringify({ comment: text }), {
          evidence: false,
        });
        assert.equal(res.status, 200, `a comment of ${text.length} UTF-16 units answered ${res.status}`);
        const history = await fleet.history('partner', siteId, { evidence: false });
        const entry = (history.json as HistoryEntry[]).find((e) => e.attention?.id === id);
        assert.equal(entry?.attention?.comment, text, 'the history does not hold the comment unchanged');
      }),
      runs,
    );
  }),
);
