/**
 * A command's effect on the PBX's other faces: the data endpoint (JSON, XML, agent text) and the
 * XML-RPC queries (monitoring-endpoint-and-xmlrpc.md), read once the snapshot cache has expired.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { sectionsNamed } from '../support/agent-text-view.ts';
import { latestAgentView, latestJson, latestXmlRoot } from '../support/latest-snapshots.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { findJsonFields, jsonField } from '../support/snapshot-values.ts';
import type { PbxWorld } from '../support/world.ts';
import { childNamed, childrenNamed, parseXmlDocument, type XmlElement } from '../support/xml-document.ts';
import { stringMember } from '../support/xmlrpc-answers.ts';
import { settle } from './support/completion-watch.ts';
import { withMaintenanceControl } from './support/maintenance-access.ts';

const CHANNELS_BEFORE = memoryKey<string[]>('channelsBefore');
const BACKUP_TIMES_BEFORE = memoryKey<number[]>('backupTimesBefore');
const jsonBeforeOf = (name: string) => memoryKey<number>(`jsonBefore:${name}`);

When('the command has run and the snapshot cache has expired', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'advance the PBX clock past the snapshot cache', async (controls) => {
    await settle(controls);
    const lifetime = (await controls.control.getState()).monitoring.cacheLifetimeMs;
    await controls.control.advanceClock({ ms: lifetime + 1 });
  });
});

function activeChannelList(world: PbxWorld): string[] {
  const channels = jsonField(latestJson(world), 'channelsActive');
  assert.ok(Array.isArray(channels), `"channelsActive" is ${JSON.stringify(channels)}, not a list`);
  return channels as string[];
}

Then('the JSON snapshot lists {int} active channels', function (this: PbxWorld, count: number) {
  const channels = activeChannelList(this);
  assert.equal(channels.length, count, 'active channels');
  this.memory.set(CHANNELS_BEFORE, channels);
});

Then('the JSON snapshot lists no active channels', function (this: PbxWorld) {
  assert.deepEqual(activeChannelList(this), []);
});

Then("the XML snapshot's channels element has no channel", function (this: PbxWorld) {
  const channels = childNamed(latestXmlRoot(this), 'channels');
  assert.ok(channels, 'the XML snapshot has no channels element');
  assert.equal(childrenNamed(channels, 'channel').length, 0, 'channel elements');
});

Then('the agent text from XML-RPC names none of the channels that were active', function (this: PbxWorld) {
  const text = stringMember(this, 'data');
  const before = this.memory.require(CHANNELS_BEFORE);
  assert.ok(before.length > 0, 'no channels were noted');
  assert.ok(text.includes('<<<'), 'the XML-RPC data is no agent text');
  for (const channel of before) assert.ok(!text.includes(channel), `the agent text still names ${channel}`);
});

/** Epoch-ms values anywhere in the JSON `backups` list: the times of the backup runs. */
function backupTimes(world: PbxWorld): number[] {
  const times = new Set<number>();
  const visit = (node: unknown) => {
    if (typeof node === 'number' && node > 946_684_800_000) times.add(node);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(visit);
  };
  for (const backups of findJsonFields(latestJson(world), 'backups')) visit(backups);
  return [...times];
}

function timesBefore(world: PbxWorld): number[] {
  const times = world.memory.get(BACKUP_TIMES_BEFORE);
  assert.ok(times && times.length > 0, 'no backup times were noted');
  return times;
}

/** The forms a backup time takes in text: epoch ms or ISO 8601. */
function timeForms(time: number): string[] {
  return [String(time), new Date(time).toISOString()];
}

Then('the JSON snapshot shows backup times', function (this: PbxWorld) {
  const times = backupTimes(this);
  assert.ok(times.length > 0, 'the JSON snapshot shows no backup time');
  this.memory.set(BACKUP_TIMES_BEFORE, times);
});

Then("the JSON snapshot's backups show none of the backup times seen before", function (this: PbxWorld) {
  const now = new Set(backupTimes(this));
  for (const time of timesBefore(this)) assert.ok(!now.has(time), `backup time ${time} is still shown`);
});

Then(
  'the section {string} shows none of the backup times seen before',
  function (this: PbxWorld, header: string) {
    const name = header.replace(/^<<<|>>>$/g, '');
    const sections = sectionsNamed(latestAgentView(this), name);
    assert.ok(sections.length > 0, `the agent text has no section ${header}`);
    const text = sections.flatMap((section) => section.lines).join('\n');
    for (const time of timesBefore(this))
      for (const form of timeForms(time)) assert.ok(!text.includes(form), `${header} still shows ${form}`);
  },
);

/** The `entry` elements of the `local` document the last XML-RPC call returned. */
function localEntries(world: PbxWorld): XmlElement[] {
  const parsed = parseXmlDocument(stringMember(world, 'data'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(parsed.root.name, 'local');
  return childrenNamed(parsed.root, 'entry');
}

function childText(entry: XmlElement, name: string): string {
  return childNamed(entry, name)?.text.trim() ?? '';
}

Then('no backup-time entry of the local document shows a backup time seen before', function (this: PbxWorld) {
  const entries = localEntries(this).filter((entry) => entry.attributes['key'] === 'backupTime');
  const text = entries
    .map((entry) => `${childText(entry, 'value')} ${childText(entry, 'string')}`)
    .join('\n');
  for (const time of timesBefore(this))
    for (const form of timeForms(time))
      assert.ok(!text.includes(form), `a backupTime entry still shows ${form}`);
});

Then(
  'every provider entry of the local document has status {int}',
  function (this: PbxWorld, status: number) {
    const providers = localEntries(this).filter((entry) => entry.attributes['key'] === 'provider');
    assert.ok(providers.length > 0, 'the local document has no provider entry');
    for (const entry of providers)
      assert.equal(childText(entry, 'status'), String(status), `status of ${childText(entry, 'name')}`);
  },
);

Then('every SIP provider entry of the JSON snapshot is registered', function (this: PbxWorld) {
  const entries = jsonField(latestJson(this), 'sipProviderEntries');
  assert.ok(Array.isArray(entries) && entries.length > 0, 'the JSON snapshot lists no SIP provider entry');
  for (const entry of entries as { uri?: unknown; registered?: unknown }[])
    assert.equal(entry.registered, true, `${String(entry.uri)} is not registered`);
});

Then('the JSON field {string} is {string}', function (this: PbxWorld, name: string, value: string) {
  assert.equal(jsonField(latestJson(this), name), value, `JSON field "${name}"`);
});

Then(
  "the local document's version entries major, minor, build and revision give {string}",
  function (this: PbxWorld, version: string) {
    const entries = localEntries(this);
    const part = (key: string) => {
      const entry = entries.find((candidate) => candidate.attributes['key'] === key);
      assert.ok(entry, `the local document has no "${key}" entry`);
      return childText(entry, 'value');
    };
    assert.equal(['major', 'minor', 'build', 'revision'].map(part).join('.'), version);
  },
);

function numericField(world: PbxWorld, name: string): number {
  const value = jsonField(latestJson(world), name);
  assert.equal(typeof value, 'number', `JSON field "${name}" is ${JSON.stringify(value)}`);
  return value as number;
}

Then('the JSON field {string} is above {int}', function (this: PbxWorld, name: string, floor: number) {
  const value = numericField(this, name);
  assert.ok(value > floor, `JSON field "${name}" is ${value}`);
  this.memory.set(jsonBeforeOf(name), value);
});

Then('the JSON field {string} is below its earlier value', function (this: PbxWorld, name: string) {
  const before = this.memory.require(jsonBeforeOf(name));
  const value = numericField(this, name);
  assert.ok(value < before, `JSON field "${name}" is ${value}, was ${before}`);
});
