import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateFindings } from '../../../../simulators/fleet-controller/index.ts';
import { OutageBuffer } from '../../../../simulators/pbx/events/outage-buffer.ts';
import { pbxInventory } from '../../../../simulators/pbx/events/pbx-inventory.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';

const T0 = 1_767_225_600_000;
const DAY = 86_400_000;

test('FLEET-UNSPEC-FINDING-CRITERIA: the healthy default PBX has no findings', () => {
  const inventory = pbxInventory(defaultState(T0), T0);
  assert.deepEqual(evaluateFindings({ reachable: true, inventory }), []);
  assert.deepEqual(evaluateFindings({ reachable: false, inventory }), ['offline']);
  assert.deepEqual(evaluateFindings({ reachable: null, inventory: null }), []);
});

test('FLEET-UNSPEC-FINDING-CRITERIA: trunks, backups, version and modules follow the PBX state', () => {
  const state = defaultState(T0);
  state.sipProviders[1]!.registered = false;
  state.update.kind = 'major';
  state.modules[2]!.instances[1]!.status = 1;
  state.backups[0]!.runs.push({ time: T0 - 1000, result: 'de.vendor.backup.failed' });
  const inventory = pbxInventory(state, T0);
  assert.equal(inventory.backups[0]!.lastRun?.result, 'de.vendor.backup.failed');
  assert.equal(inventory.backups[0]!.target, 'HDD');
  assert.equal(inventory.backups[1]!.target, 'SMB 192.0.2.6:/Backup');
  assert.deepEqual(evaluateFindings({ reachable: true, inventory }), [
    'trunks',
    'backupFailed',
    'version',
    'modules',
  ]);
  // backups older than 7 days are missing; an empty list too
  const stale = pbxInventory(defaultState(T0), T0 + 8 * DAY);
  assert.deepEqual(evaluateFindings({ reachable: true, inventory: stale }), ['backupMissing']);
  state.backups = [];
  assert.ok(
    evaluateFindings({ reachable: true, inventory: pbxInventory(state, T0) }).includes('backupMissing'),
  );
});

test('EVENT-BUFFER-LIMIT: the outage buffer keeps the newest entries up to its limit and drains oldest first', () => {
  const buffer = new OutageBuffer<number>(3);
  assert.deepEqual(
    [1, 2, 3].map((n) => buffer.push(n)),
    [undefined, undefined, undefined],
  );
  assert.equal(buffer.push(4), 1);
  assert.deepEqual(buffer.peek(), [2, 3, 4]);
  assert.deepEqual(buffer.drain(), [2, 3, 4]);
  assert.equal(buffer.length, 0);
  buffer.push(9);
  buffer.clear();
  assert.equal(buffer.length, 0);
});
