import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderFormat } from '../../../simulators/pbx/index.ts';
import {
  bareIntegerProblems,
  callsApartProblems,
  channelRows,
  cutSection,
  fieldChannelReader,
  fieldValue,
  keyValueLineProblems,
  moduleRow,
  pbxKeyProblems,
  peerSummaryProblems,
  prefixProblems,
  registrationSummaryProblems,
} from '../../../steps/support/agent-field-lines.ts';
import { scenarioSnapshot } from '../../simulators/pbx/snapshot/render/snapshot-of.ts';

const NO_FAULTS = { renderError: false, jsonError: false };
const agentText = (scenario: string) =>
  renderFormat(scenarioSnapshot(scenario), 'checkmk', NO_FAULTS).toString('utf8');
const HEALTHY = agentText('healthy');
const RAID = agentText('raid-degraded');

/** The healthy text with one row replaced (the row must exist). */
function drift(from: string, to: string, text = HEALTHY): string {
  assert.ok(text.includes(`\n${from}\n`), `no row ${from}`);
  return text.replace(`\n${from}\n`, `\n${to}\n`);
}

function allProblems(text: string): string[] {
  return [
    ...keyValueLineProblems(text),
    ...prefixProblems(text),
    ...bareIntegerProblems(text).problems,
    ...pbxKeyProblems(text, false),
    ...peerSummaryProblems(text, 7),
    ...registrationSummaryProblems(text, 2),
  ];
}

test('the simulator passes every field checker, with and without a RAID', () => {
  assert.deepEqual(allProblems(HEALTHY), []);
  assert.deepEqual(keyValueLineProblems(RAID), []);
  assert.deepEqual(prefixProblems(RAID), []);
  assert.deepEqual(pbxKeyProblems(RAID, true), []);
  assert.ok(bareIntegerProblems(HEALTHY).checked >= 25);
});

test('sections are cut at the exact header up to the next <<<, rows found by prefix, values after `key `', () => {
  const rows = cutSection('<<<a>>>\nx 1\n<<<pbx>>>\nknown_phones 5\nfoo bar <<<z>>>\n', 'pbx');
  assert.deepEqual(rows, ['known_phones 5', 'foo bar ']);
  assert.equal(cutSection('<<<pbx:sep(0)>>>\nk v\n', 'pbx'), undefined);
  assert.equal(fieldValue(['known_phones 148'], 'known_phones'), '148');
  assert.equal(fieldValue(['known_phones 148'], 'online_phones'), undefined);
});

test('drift: a colon after a key is rejected', () => {
  const text = drift('known_phones 148', 'known_phones: 148');
  assert.ok(keyValueLineProblems(text).some((p) => p.includes('known_phones')));
  assert.ok(pbxKeyProblems(text).some((p) => p.includes('known_phones')));
  const accounts = drift('admin_accounts 4', 'admin_accounts: 4');
  assert.ok(keyValueLineProblems(accounts).some((p) => p.includes('admin_accounts')));
  const extra = drift('cdr_size 536870912', 'cdr_size: 536870912');
  assert.ok(keyValueLineProblems(extra).some((p) => p.includes('cdr_size:')));
});

test('drift: a renamed key is rejected', () => {
  assert.ok(
    pbxKeyProblems(drift('known_phones 148', 'phones_known 148')).some((p) => p.includes('known_phones')),
  );
  assert.ok(
    pbxKeyProblems(drift('owner "Example Trading AG"', 'license_owner "Example Trading AG"')).length > 0,
  );
  const text = drift('java_heap_memory 412090368/2147483648', 'heap_used 412090368');
  assert.equal(fieldValue(cutSection(text, 'pbx_java') ?? [], 'java_heap_memory'), undefined);
});

test('drift: a unit or separator after a number is rejected', () => {
  for (const [from, to] of [
    ['known_phones 148', 'known_phones 148 phones'],
    ['java_max_memory 2147483648', 'java_max_memory 2048 MB'],
    ['appliance_max_users 250', 'appliance_max_users 1,250'],
    ['total_accounts 155/0', 'total_accounts 155'],
  ] as const) {
    assert.ok(bareIntegerProblems(drift(from, to)).problems.length > 0, to);
  }
  assert.ok(pbxKeyProblems(drift('known_phones 148', 'known_phones 148 phones')).length > 0);
  const backups = HEALTHY.replace(/(\[HDD\] \d+)/, '$1ms');
  assert.ok(bareIntegerProblems(backups).problems.some((p) => p.includes('epoch')));
});

test('drift: a key that is a prefix of another key is rejected', () => {
  const text = drift('debug_mode disabled', 'debug_mode disabled\nknown_phones_total 148');
  assert.ok(
    prefixProblems(text).some((p) => p.includes("'known_phones' is a prefix of 'known_phones_total'")),
  );
  const idle = drift('idle_connections 30', 'idle_connections 30\nidle_connections_max 40');
  assert.ok(prefixProblems(idle).length > 0);
});

test('drift: a peer summary that disagrees with the listing is rejected', () => {
  const summary = '7 sip peers [Monitored: 5 online, 0 offline Unmonitored: 1 online, 1 offline]';
  assert.ok(peerSummaryProblems(drift(summary, summary.replace('7 sip', '8 sip'))).length > 0);
  assert.ok(peerSummaryProblems(drift(summary, summary.replace('5 online', '6 online'))).length > 0);
  assert.ok(peerSummaryProblems(drift(summary, summary.replace('Monitored: 5', 'Monitored:  5'))).length > 0);
  const dropped = HEALTHY.replace(/\n202 [^\n]*\n/, '\n');
  assert.ok(peerSummaryProblems(dropped).some((p) => p.includes('6 peer rows')));
  assert.ok(peerSummaryProblems(HEALTHY, 8).length > 0, 'the JSON snapshot has another number of peers');
});

test('drift in the other listings: registrations, channels, modules', () => {
  assert.ok(registrationSummaryProblems(drift('2 SIP registrations.', '3 SIP registrations.')).length > 0);
  assert.ok(registrationSummaryProblems(drift('2 SIP registrations.', '')).length > 0);
  const channels = channelRows(drift('60 max calls', 'max: 60'));
  assert.ok('problem' in channels);
  assert.ok('problem' in channelRows(drift('60 max calls', '60 max calls 23 last_5min_calls')));
  const fine = channelRows(HEALTHY);
  assert.ok(!('problem' in fine) && fine.max === 60 && fine.channels.length === 7);
  assert.deepEqual(moduleRow('Voicemail:70:Example GmbH:<>'), {
    name: 'Voicemail',
    version: '70',
    vendor: 'Example GmbH',
    instances: [],
  });
  assert.equal(moduleRow('module: Voicemail'), undefined);
  assert.equal(moduleRow('a:b:c:d:<x>'), undefined);
});

test('FIELD-PBX-KEYS: RAID keys must come together and follow whether a RAID is configured', () => {
  assert.ok(pbxKeyProblems(HEALTHY, true).some((p) => p.includes('no raid_status')));
  assert.ok(pbxKeyProblems(RAID, false).some((p) => p.includes('but there is a raid_status')));
  const lonely = RAID.replace(/\nraid_diagnosis [^\n]*\n/, '\n');
  assert.ok(pbxKeyProblems(lonely).some((p) => p.includes('together')));
  assert.ok(pbxKeyProblems(drift('pbx_version 12.4.1.3', 'pbx_version 12.4')).length > 0);
  assert.ok(
    pbxKeyProblems(drift('appliance_type "PBX-Appliance-M"', 'appliance_type PBX-Appliance-M')).length > 0,
  );
  assert.ok(pbxKeyProblems(drift('password_check enabled', 'password_check true')).length > 0);
});

test('the field-way channel reader misreads the longer first line, and reads the exact one right', () => {
  assert.deepEqual(fieldChannelReader(HEALTHY), { max: 60, channels: 7, byTechnology: { SIP: 6, DAHDI: 1 } });
  const longer = fieldChannelReader(drift('60 max calls', '60 max calls 23 last_5min_calls'));
  assert.equal(longer?.max, undefined);
  assert.equal(longer?.channels, 8);
  assert.deepEqual(callsApartProblems(HEALTHY, 23), []);
  assert.ok(callsApartProblems(HEALTHY, 24).length > 0);
  assert.ok(callsApartProblems(drift('last_5min_calls 23', 'calls 23'), 23).length > 0);
});
