import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeToken, decodeValue } from '../../../src/agent-text/decode-value.ts';
import { parsePbxSections } from '../../../src/agent-text/parse-pbx-sections.ts';

test('reads the backup lines of the earlier component (test vectors)', () => {
  const data = parsePbxSections(
    '<<<pbx_backups>>>\n[HDD] 1623885428016 de.vendor.backup.successful\n[SMB]192.0.2.6:/Backup 1556666025340 de.vendor.backup.mountfail\n[FTP]x -1 -\n',
  );
  assert.deepEqual(data.backups, [
    { type: 'HDD', location: '', time: 1_623_885_428_016, result: 'de.vendor.backup.successful' },
    {
      type: 'SMB',
      location: '192.0.2.6:/Backup',
      time: 1_556_666_025_340,
      result: 'de.vendor.backup.mountfail',
    },
    { type: 'FTP', location: 'x', time: -1, result: '' },
  ]);
  assert.deepEqual(data.problems, []);
});

test('reads the engine peer summary and the peer lines', () => {
  const data = parsePbxSections(
    '<<<pbx_peers>>>\n201 10.0.0.1 12 monitored online\nx%20y - -1 unmonitored offline\n169 sip peers [Monitored: 100 online, 68 offline Unmonitored: 1 online, 0 offline]\n',
  );
  assert.deepEqual(data.peers?.summary, {
    total: 169,
    monitoredOnline: 100,
    monitoredOffline: 68,
    unmonitoredOnline: 1,
    unmonitoredOffline: 0,
  });
  assert.deepEqual(data.peers?.peers[1], {
    name: 'x y',
    ipaddr: '',
    lastms: -1,
    monitored: false,
    online: false,
  });
});

test('reads key-value sections and reports missing or unreadable numbers', () => {
  const data = parsePbxSections(
    '<<<pbx_accounts>>>\ntotal: 5\nadmin: x\nnot a key value line\n<<<pbx_database>>>\ndatabase_size: 10\ncdr_size: 2\n',
  );
  assert.equal(data.accounts?.total, 5);
  assert.ok(Number.isNaN(data.accounts?.admin));
  assert.deepEqual(data.database, { databaseSize: 10, cdrSize: 2 });
  assert.ok(data.problems.some((p) => p.includes('admin')));
  assert.ok(data.problems.some((p) => p.includes('active is missing')));
  assert.ok(data.problems.some((p) => p.includes('not a key: value line')));
  assert.equal(data.channels, undefined);
});

test('groups module lines and reads connection breakdowns', () => {
  const data = parsePbxSections(
    '<<<pbx_modules>>>\nmodule: A\nversion: 1\nvendor: V W\ninstance: one\ninstance: two\nmodule: B\nid: b\n<<<pbx_db_connections>>>\ntotal: 3\nactive: 1\nidle: 1\nidle_in_transaction: 1\nmax: 9\nby_app: pbx%20core 2\nby_db: pbx 3\n',
  );
  assert.deepEqual(data.modules, [
    { name: 'A', id: '', version: '1', vendor: 'V W', instances: ['one', 'two'] },
    { name: 'B', id: 'b', version: '', vendor: '', instances: [] },
  ]);
  assert.deepEqual(data.dbConnections?.byApp, [{ name: 'pbx core', count: 2 }]);
  assert.equal(data.dbConnections?.max, 9);
});

test('decoding leaves a % that does not start a valid sequence alone', () => {
  assert.equal(decodeValue('50% of %41%42 %E2%80%A8 %zz %E2'), '50% of AB \u2028 %zz %E2');
  assert.equal(decodeToken('-'), '');
  assert.equal(decodeToken('%2D'), '-');
});
