import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { listScenarios } from '../../../../../simulators/pbx/load-scenario.ts';
import {
  jsonSnapshot,
  renderJsonSnapshot,
} from '../../../../../simulators/pbx/snapshot/render/json-snapshot.ts';
import { JSON_SNAPSHOT_FIELDS } from '../../../../../steps/support/json-snapshot-spec.ts';
import { scenarioSnapshot } from './snapshot-of.ts';

const schemaPath = new URL('../../../../../schemas/monitoring-snapshot.schema.json', import.meta.url);
const validate = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(schemaPath, 'utf8')),
);

test('the JSON snapshot has every field of the spec table', () => {
  const json = jsonSnapshot(scenarioSnapshot('healthy'));
  for (const field of JSON_SNAPSHOT_FIELDS) assert.ok(field in json, field);
  assert.equal(json['hostname'], 'pbx-sim-01');
  assert.equal(json['accountsTotal'], 155);
  assert.equal(json['updateAvailable'], false);
});

test('peers carry lastms as text; providers carry integer index, uri and boolean registered', () => {
  const json = jsonSnapshot(scenarioSnapshot('trunk-unregistered'));
  const peers = json['peers'] as Record<string, unknown>[];
  assert.ok(peers.every((p) => typeof p['lastms'] === 'string'));
  assert.equal(peers[4]?.['lastms'], '-1');
  assert.deepEqual(json['sipProviderEntries'], [
    { index: 0, uri: 'sip:+4930123456@tel.t-online.de', registered: true },
    { index: 1, uri: 'sip:4711234@sipgate.de', registered: false },
  ]);
  assert.ok((json['channelsActive'] as unknown[]).every((c) => typeof c === 'string'));
});

test('backups carry location, time, message and runInfo; lastBackupAgeMinutes counts from the newest run', () => {
  const json = jsonSnapshot(scenarioSnapshot('backup-failed'));
  const backups = json['backups'] as Record<string, unknown>[];
  assert.equal(backups[1]?.['location'], '192.0.2.6:/Backup');
  assert.equal(backups[1]?.['message'], 'Backup failed: could not mount 192.0.2.6:/Backup');
  assert.deepEqual(
    (backups[1]?.['runInfo'] as Record<string, unknown> | undefined)?.['lastResult'],
    'de.vendor.backup.mountfail',
  );
  assert.equal(json['lastBackupAgeMinutes'], 120);
  const modules = json['modules'] as { instances: { name: string }[] }[];
  assert.deepEqual(
    modules[2]?.instances.map((i) => i.name),
    ['CRM Lookup', 'ERP Lookup'],
  );
});

test('MON-JSON-SENTINEL: numbers that cannot be determined are -1', () => {
  const json = jsonSnapshot(scenarioSnapshot('values-unknown'));
  for (const field of [
    'uptimeLinuxMs',
    'knownPhones',
    'channelsMax',
    'accountsTotal',
    'rtpAvgJitterMs',
    'osMemTotalBytes',
  ]) {
    assert.equal(json[field], -1, field);
  }
  for (const field of [
    'databaseSize',
    'cdrSize',
    'dbConnTotal',
    'javaHeapUsed',
    'javaHeapMax',
    'osLoad1min',
  ]) {
    assert.equal(json[field], -1, field);
  }
  assert.equal((json['peers'] as { lastms: string }[])[0]?.lastms, '-1');
});

test('non-finite numbers in state become -1 and the text stays valid JSON', () => {
  const snapshot = scenarioSnapshot('healthy');
  const state = snapshot.state as { rtp: { avgJitterMs: number } };
  state.rtp.avgJitterMs = Number.NaN;
  const parsed = JSON.parse(renderJsonSnapshot(snapshot)) as Record<string, unknown>;
  assert.equal(parsed['rtpAvgJitterMs'], -1);
});

test('schemas/monitoring-snapshot.schema.json accepts the JSON snapshot of every shipped scenario', () => {
  const names = listScenarios().map((s) => s.name);
  assert.ok(names.length >= 12);
  for (const name of names) {
    const json = JSON.parse(renderJsonSnapshot(scenarioSnapshot(name))) as unknown;
    assert.ok(validate(json), `${name}: ${JSON.stringify(validate.errors)}`);
  }
});

test('the schema refuses a snapshot with a missing spec field or a numeric lastms', () => {
  const json = jsonSnapshot(scenarioSnapshot('healthy'));
  const { accountsTotal: _dropped, ...missing } = json;
  assert.equal(validate(missing), false);
  const peers = (json['peers'] as Record<string, unknown>[]).map((p) => ({ ...p, lastms: 12 }));
  assert.equal(validate({ ...json, peers }), false);
});
