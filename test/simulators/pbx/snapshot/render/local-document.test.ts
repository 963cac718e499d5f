import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import {
  renderLocalDocument,
  versionParts,
} from '../../../../../simulators/pbx/snapshot/render/local-document.ts';
import { parseLocalDocument } from './local-document-parse.ts';
import { scenarioState } from './snapshot-of.ts';

function entriesOf(scenario: string) {
  return parseLocalDocument(renderLocalDocument(scenarioState(scenario)));
}

test('the local document is well-formed XML with a UTF-8 declaration and root local', () => {
  const xml = renderLocalDocument(scenarioState('healthy'));
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
  assert.equal(XMLValidator.validate(xml), true);
  assert.match(xml, /<local><entry key="diskUtilization"><status>0<\/status><name>/);
});

test('XMLRPC-LOCAL-ENTRY: the healthy state has each sensor key with status, name, value and string', () => {
  const entries = entriesOf('healthy');
  assert.deepEqual(
    entries.map((e) => e.key),
    [
      'diskUtilization',
      'update',
      'major',
      'minor',
      'build',
      'revision',
      'phoneStatus',
      'backup',
      'backupTime',
      'backup',
      'backupTime',
      'provider',
      'provider',
    ],
  );
  for (const e of entries) {
    assert.ok(['0', '1', '2'].includes(e.status));
    assert.ok(e.name.length > 0);
  }
  assert.deepEqual(
    entries.filter((e) => ['major', 'minor', 'build', 'revision'].includes(e.key)).map((e) => e.value),
    ['12', '4', '1', '3'],
  );
});

test('diskUtilization measures RAM: 75 % warns, 93 % is critical', () => {
  const warning = entriesOf('ram-warning').find((e) => e.key === 'diskUtilization');
  assert.equal(warning?.value, '75');
  assert.equal(warning?.status, '1');
  const critical = entriesOf('ram-critical').find((e) => e.key === 'diskUtilization');
  assert.equal(critical?.status, '2');
  assert.match(critical?.value ?? '', /^93(\.0+)?$/);
});

test('scenarios set the update, phone, backup and provider sensors', () => {
  assert.deepEqual(
    entriesOf('update-major')
      .filter((e) => e.key === 'update')
      .map((e) => [e.status, e.value]),
    [['2', 'true']],
  );
  assert.equal(entriesOf('all-phones-offline').find((e) => e.key === 'phoneStatus')?.status, '2');
  assert.deepEqual(
    entriesOf('backup-failed')
      .filter((e) => e.key === 'backup')
      .map((e) => e.status),
    ['0', '2'],
  );
  assert.deepEqual(
    entriesOf('trunk-unregistered')
      .filter((e) => e.key === 'provider')
      .map((e) => [e.status, e.value]),
    [
      ['0', 'true'],
      ['2', 'false'],
    ],
  );
});

test('values that cannot be determined are -1 in the local document', () => {
  const entries = entriesOf('values-unknown');
  assert.equal(entries.find((e) => e.key === 'diskUtilization')?.value, '-1');
  assert.equal(entries.find((e) => e.key === 'phoneStatus')?.status, '0');
});

test('version parts are numbers, -1 where a part is missing', () => {
  assert.deepEqual(versionParts('12.4.1.3'), [12, 4, 1, 3]);
  assert.deepEqual(versionParts('13.0'), [13, 0, -1, -1]);
  assert.deepEqual(versionParts('1.2.3.4-beta'), [1, 2, 3, 4]);
  assert.deepEqual(versionParts(''), [-1, -1, -1, -1]);
});

test('messages with markup and control characters still give well-formed XML', () => {
  const state = scenarioState('healthy');
  const backup = state.backups[0];
  assert.ok(backup);
  backup.message = 'a <b> & "c" \u0001 \uD800 ]]>';
  const xml = renderLocalDocument(state);
  assert.equal(XMLValidator.validate(xml), true);
  const entry = parseLocalDocument(xml).find((e) => e.key === 'backup');
  assert.equal(entry?.string, 'a <b> & "c" \uFFFD \uFFFD ]]>');
});
