import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeToken, decodeValue } from '../../../src/agent-text/decode-value.ts';
import { parsePbxSections } from '../../../src/agent-text/parse-pbx-sections.ts';

test('reads the backup lines of the earlier component (test vectors)', () => {
  const data = parsePbxSections(
    '<<<pbx_backups>>>\n[HDD] 1623885428016 de.vendor.backup.successful\n[SMB]192.0.2.6:/Backup 1556666025340 de.vendor.backup.mountfail\n[MAIL]user@example.org 1515593790747 de.vendor.backup.mailtobig\n',
  );
  assert.deepEqual(data.backups, [
    { type: 'HDD', location: '', time: 1_623_885_428_016, result: 'de.vendor.backup.successful' },
    {
      type: 'SMB',
      location: '192.0.2.6:/Backup',
      time: 1_556_666_025_340,
      result: 'de.vendor.backup.mountfail',
    },
    {
      type: 'MAIL',
      location: 'user@example.org',
      time: 1_515_593_790_747,
      result: 'de.vendor.backup.mailtobig',
    },
  ]);
  assert.deepEqual(data.problems, []);
});

test('reads the engine peer listing and its summary line', () => {
  const data = parsePbxSections(
    [
      '<<<pbx_peers>>>',
      'Name/username             Host                                    Dyn Forcerport Comedia    ACL Port     Status',
      '201                       10.0.0.1                                D   No         No             5060     OK (21 ms)',
      'x%20y                     -                                       D   No         No             0        UNKNOWN',
      'trunk                     192.0.2.9                                   Yes        Yes        A   5060     Unmonitored',
      '169 sip peers [Monitored: 100 online, 68 offline Unmonitored: 1 online, 0 offline]',
      '',
    ].join('\n'),
  );
  assert.deepEqual(data.problems, []);
  assert.deepEqual(data.peers?.summary, {
    total: 169,
    monitoredOnline: 100,
    monitoredOffline: 68,
    unmonitoredOnline: 1,
    unmonitoredOffline: 0,
  });
  assert.equal(data.peers?.peers.length, 3);
  assert.deepEqual(data.peers?.peers[0], {
    name: '201',
    ipaddr: '10.0.0.1',
    flags: ['D', 'No', 'No'],
    port: 5060,
    status: 'OK (21 ms)',
    lastms: 21,
    monitored: true,
    online: true,
  });
  assert.deepEqual(data.peers?.peers[1], {
    name: 'x y',
    ipaddr: '',
    flags: ['D', 'No', 'No'],
    port: 0,
    status: 'UNKNOWN',
    lastms: -1,
    monitored: true,
    online: false,
  });
  assert.equal(data.peers?.peers[2]?.monitored, false);
  assert.equal(data.peers?.peers[2]?.online, null);
});

test('reads key value sections and reports colons, units and missing keys', () => {
  const data = parsePbxSections(
    '<<<pbx_accounts>>>\ntotal_accounts 5/0\nadmin_accounts 3 users\nactive_accounts: 2\n<<<pbx_database>>>\nopened_connections 9\nclosed_connections 8\nactive_connections 1\nidle_connections 0\ndatabase_size 10\ncdr_size 2\n',
  );
  assert.equal(data.accounts?.total, 5);
  assert.ok(Number.isNaN(data.accounts?.admin));
  assert.equal(data.database?.databaseSize, 10);
  assert.equal(data.database?.openedConnections, 9);
  assert.ok(data.problems.some((p) => p.includes("admin_accounts is '3 users', not a bare integer")));
  assert.ok(
    data.problems.some((p) => p.includes("not a 'key value' line") && p.includes('active_accounts:')),
  );
  assert.ok(data.problems.some((p) => p.includes('ringing_accounts is missing')));
  assert.equal(data.channels, undefined);
});

test('reads module lines, the registration listing, connection breakdowns and the java lines', () => {
  const data = parsePbxSections(
    [
      '<<<pbx_sip_provider>>>',
      'sip:1@a.example   1   120 Registered',
      'sip:2@b.example   2   120 Unregistered',
      '2 SIP registrations.',
      '<<<pbx_modules>>>',
      'Monitoring:20200908:Example GmbH:<Monitoring>',
      'Voicemail:70:Example GmbH:<>',
      'Tür%3Aöffner:1:Ä:<a%2Cb,c>',
      '<<<pbx_db_connections>>>',
      'total_connections 3',
      'active_connections 1',
      'idle_connections 1',
      'idle_in_transaction_connections 1',
      'max_connections 9',
      'by_app pbx%20core 2',
      'by_db pbx 3',
      '<<<pbx_java>>>',
      'java_vm_name OpenJDK 64-Bit Server VM',
      'java_vm_vendor Oracle Corporation',
      'java_vm_version 25.292-b10',
      'java_version 1.8.0_292',
      'java_heap_memory 100/200',
      'java_non_heap_memory 50/-1',
      'java_max_memory 200',
      '',
    ].join('\n'),
  );
  assert.deepEqual(data.problems, []);
  assert.deepEqual(
    data.sipProviders?.registrations.map((r) => [r.uri, r.registered]),
    [
      ['sip:1@a.example', true],
      ['sip:2@b.example', false],
    ],
  );
  assert.deepEqual(data.modules, [
    { name: 'Monitoring', version: '20200908', vendor: 'Example GmbH', instances: ['Monitoring'] },
    { name: 'Voicemail', version: '70', vendor: 'Example GmbH', instances: [] },
    { name: 'Tür:öffner', version: '1', vendor: 'Ä', instances: ['a,b', 'c'] },
  ]);
  assert.deepEqual(data.dbConnections?.byApp, [{ name: 'pbx core', count: 2 }]);
  assert.equal(data.dbConnections?.max, 9);
  assert.deepEqual(
    [data.java?.heapUsed, data.java?.heapMax, data.java?.nonHeapUsed, data.java?.nonHeapMax],
    [100, 200, 50, -1],
  );
});

test('a registration summary that disagrees with the listing is a problem', () => {
  const data = parsePbxSections('<<<pbx_sip_provider>>>\nsip:1@a 1 120 Registered\n2 SIP registrations.\n');
  assert.ok(data.problems.some((p) => p.includes('the summary says 2 registrations, 1 are listed')));
});

test('decoding leaves a % that does not start a valid sequence alone', () => {
  assert.equal(decodeValue('50% of %41%42 %E2%80%A8 %zz %E2'), '50% of AB \u2028 %zz %E2');
  assert.equal(decodeToken('-'), '');
  assert.equal(decodeToken('%2D'), '-');
});
