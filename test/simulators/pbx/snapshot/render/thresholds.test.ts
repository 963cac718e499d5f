import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { localChecks } from '../../../../../simulators/pbx/snapshot/render/local-checks.ts';
import {
  backupStatus,
  phoneStatus,
  providerStatus,
  ramStatus,
  ramUsePercent,
  renderLocalDocument,
  updateStatus,
} from '../../../../../simulators/pbx/snapshot/render/local-document.ts';
import { defaultState } from '../../../../../simulators/pbx/state/default-state.ts';
import type { BackupState, PbxState, UpdateKind } from '../../../../../simulators/pbx/state/types.ts';
import { parseLocalDocument } from './local-document-parse.ts';
import { NOW } from './snapshot-of.ts';
import { PROPERTY_RUN } from './state-arbitrary.ts';

/** Independent model of the RAM thresholds in exact integer arithmetic. */
function ramModel(total: number, available: number): 0 | 1 | 2 {
  const used = BigInt(total - available) * 100n;
  if (used >= 90n * BigInt(total)) return 2;
  if (used >= 70n * BigInt(total)) return 1;
  return 0;
}

/** Memory numbers around and exactly at the 70 % and 90 % boundaries, and anywhere. */
const memory = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(70, 90, 69, 89, 71, 91, 0, 100))
    .chain(([k, pct]) =>
      fc.tuple(fc.constant(100 * k), fc.constantFrom(-1, 0, 1)).map(([total, nudge]) => ({
        total,
        available: Math.min(total, Math.max(0, total - pct * k + nudge)),
      })),
    ),
  fc
    .integer({ min: 1, max: 2 ** 40 })
    .chain((total) => fc.integer({ min: 0, max: total }).map((available) => ({ total, available }))),
);

function stateWith(mutate: (s: PbxState) => void): PbxState {
  const s = defaultState(NOW);
  s.os.linuxSectionsSource = 'synthetic';
  mutate(s);
  return s;
}

function entries(state: PbxState, key: string) {
  return parseLocalDocument(renderLocalDocument(state)).filter((e) => e.key === key);
}

test('XMLRPC-DISK-IS-RAM, XMLRPC-DISK-THRESHOLDS: one diskUtilization entry, RAM use with status 0 below 70, 1 from 70, 2 from 90 %', () => {
  fc.assert(
    fc.property(memory, ({ total, available }) => {
      const state = stateWith((s) => {
        s.os.memTotalBytes = total;
        s.os.memAvailableBytes = available;
        s.os.diskRootTotalBytes = 1000;
        s.os.diskRootFreeBytes = 1;
      });
      const found = entries(state, 'diskUtilization');
      assert.equal(found.length, 1);
      const expected = ramModel(total, available);
      assert.equal(found[0]?.status, String(expected));
      assert.equal(ramStatus(ramUsePercent(state.os)), expected);
      const shown = Number(found[0]?.value);
      const exact = ((total - available) * 100) / total;
      assert.ok(shown <= exact && exact - shown < 0.01, `${shown} vs ${exact}`);
      assert.equal(ramStatus(shown), expected, 'the shown value is on the same side of each boundary');
    }),
    PROPERTY_RUN,
  );
});

test('XMLRPC-DISK-THRESHOLDS: the boundaries 70 % and 90 % themselves are warning and critical', () => {
  assert.equal(ramStatus(69.999), 0);
  assert.equal(ramStatus(70), 1);
  assert.equal(ramStatus(89.999), 1);
  assert.equal(ramStatus(90), 2);
  assert.equal(ramUsePercent({ memTotalBytes: 1000, memAvailableBytes: 300 }), 70);
  assert.equal(ramUsePercent({ memTotalBytes: 1000, memAvailableBytes: 100 }), 90);
  assert.equal(ramUsePercent({ memTotalBytes: -1, memAvailableBytes: -1 }), -1);
});

test('XMLRPC-UPDATE-VALUE, XMLRPC-UPDATE-MAJOR, XMLRPC-UPDATE-MINOR: update is true with status 2 for major, 1 for minor; false with 0 otherwise', () => {
  fc.assert(
    fc.property(fc.constantFrom<UpdateKind>('none', 'minor', 'major'), (kind) => {
      const state = stateWith((s) => {
        s.update.kind = kind;
      });
      const found = entries(state, 'update');
      assert.equal(found.length, 1);
      const model = { none: 0, minor: 1, major: 2 }[kind];
      assert.equal(found[0]?.status, String(model));
      assert.equal(found[0]?.value, kind === 'none' ? 'false' : 'true');
      assert.equal(updateStatus(kind), model);
      assert.equal(localChecks(state, NOW).find((c) => c.name === 'PBX update')?.status, model);
    }),
    PROPERTY_RUN,
  );
});

test('XMLRPC-PHONE-STATUS: phoneStatus is 2 exactly when known phones exist and none is online', () => {
  const phones = fc.oneof(fc.constant(-1), fc.constant(0), fc.constant(1), fc.nat({ max: 10_000 }));
  fc.assert(
    fc.property(phones, phones, (known, online) => {
      const state = stateWith((s) => {
        s.sip.knownPhones = known;
        s.sip.onlinePhones = online;
      });
      const model = known > 0 && online === 0 ? 2 : 0;
      const found = entries(state, 'phoneStatus');
      assert.equal(found.length, 1);
      assert.equal(found[0]?.status, String(model));
      assert.equal(phoneStatus(state.sip), model);
      assert.equal(localChecks(state, NOW).find((c) => c.name === 'PBX All Phones Offline')?.status, model);
    }),
    PROPERTY_RUN,
  );
});

/** Independent model: newest run by time (later listing wins ties); error words in the message. */
function backupModel(b: BackupState): 0 | 1 | 2 {
  const hasErrorText = ['error', 'fail', 'fehler'].some((word) => b.message.toLowerCase().includes(word));
  if (hasErrorText) return 2;
  if (b.runs.length === 0) return 1;
  const newest = b.runs.reduce((a, r) => (r.time >= a.time ? r : a));
  return newest.result.endsWith('successful') ? 0 : 2;
}

const backupArbitrary: fc.Arbitrary<BackupState> = fc.record({
  type: fc.constantFrom('HDD', 'SMB', 'FTP'),
  location: fc.constantFrom('', '192.0.2.6:/Backup', '/mnt/usb'),
  message: fc.constantFrom(
    'Backup completed successfully',
    'Backup FAILED',
    'error: share not mounted',
    'Fehler: Ziel nicht erreichbar',
    'done',
    'Sicherung erfolgreich',
  ),
  runs: fc.array(
    fc.record({
      time: fc.integer({ min: NOW - 10 * 86_400_000, max: NOW }),
      result: fc.constantFrom(
        'de.vendor.backup.successful',
        'de.vendor.backup.mountfail',
        'de.vendor.backup.successful.partial',
        'successful',
      ),
    }),
    { maxLength: 5 },
  ),
  sizeBytes: fc.nat(),
});

test('XMLRPC-BACKUP-ENTRIES, XMLRPC-BACKUP-FAILED, XMLRPC-BACKUP-ERROR-TEXT: backup status 2 on a failed newest run or an error text, per target', () => {
  fc.assert(
    fc.property(fc.array(backupArbitrary, { maxLength: 5 }), (backups) => {
      const state = stateWith((s) => {
        s.backups = backups;
      });
      const found = entries(state, 'backup');
      const times = entries(state, 'backupTime');
      assert.equal(found.length, backups.length);
      assert.equal(times.length, backups.length);
      const checks = localChecks(state, NOW).filter((c) => c.name.startsWith('PBX Backup'));
      assert.equal(checks.length, backups.length);
      backups.forEach((b, i) => {
        const model = backupModel(b);
        assert.equal(found[i]?.status, String(model));
        assert.equal(backupStatus(b), model);
        assert.equal(checks[i]?.status, model);
        const newest = b.runs.length === 0 ? -1 : Math.max(...b.runs.map((r) => r.time));
        assert.equal(Number(times[i]?.value), newest);
      });
    }),
    PROPERTY_RUN,
  );
});

test('XMLRPC-PROVIDER-ENTRIES, XMLRPC-PROVIDER-STATUS: one provider entry per trunk, 0 registered and 2 not', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { maxLength: 8 }), (registered) => {
      const state = stateWith((s) => {
        s.sipProviders = registered.map((r, i) => ({ uri: `sip:trunk${i}@example.net`, registered: r }));
      });
      const found = entries(state, 'provider');
      assert.deepEqual(
        found.map((e) => e.status),
        registered.map((r) => (r ? '0' : '2')),
      );
      assert.deepEqual(
        state.sipProviders.map((p) => providerStatus(p)),
        registered.map((r) => (r ? 0 : 2)),
      );
      const checks = localChecks(state, NOW).filter((c) => c.name.startsWith('PBX SIP Provider'));
      assert.deepEqual(
        checks.map((c) => c.status),
        registered.map((r) => (r ? 0 : 2)),
      );
    }),
    PROPERTY_RUN,
  );
});
