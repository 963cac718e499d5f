import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { evaluateFindings } from '../../../../simulators/fleet-controller/index.ts';
import { OutageBuffer } from '../../../../simulators/pbx/events/outage-buffer.ts';
import { inventoryKey, pbxInventory } from '../../../../simulators/pbx/events/pbx-inventory.ts';
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

/** A small change of a default state, drawn so that two draws often agree in what the inventory shows. */
const stateChange = fc.record({
  version: fc.constantFrom('7.1.0', '7.2.0'),
  kind: fc.constantFrom('none', 'minor'),
  registered: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
  runs: fc.array(
    fc.record({
      target: fc.constantFrom(0, 1),
      time: fc.integer({ min: T0 - 3 * DAY, max: T0 }).map((t) => t - (t % DAY)),
      result: fc.constantFrom('de.vendor.backup.successful', 'de.vendor.backup.mountfail'),
    }),
    { maxLength: 3 },
  ),
  status: fc.constantFrom(0, 1, 2),
  phones: fc.integer({ min: 0, max: 5 }),
});

function changed(change: typeof stateChange extends fc.Arbitrary<infer T> ? T : never) {
  const state = defaultState(T0);
  state.appliance.pbxVersion = change.version;
  state.update.kind = change.kind as typeof state.update.kind;
  change.registered.forEach((r, i) => {
    state.sipProviders[i]!.registered = r;
  });
  for (const run of change.runs) state.backups[run.target]!.runs.push({ time: run.time, result: run.result });
  state.modules[0]!.instances[0]!.status = change.status;
  state.sip.onlinePhones = change.phones;
  return state;
}

test('inventoryKey: two states have the same key exactly when their inventories agree (apart from `at`)', () => {
  fc.assert(
    fc.property(stateChange, stateChange, fc.integer({ min: 0, max: 5 }), (a, b, phones) => {
      const x = changed(a);
      const inventory = (state: ReturnType<typeof changed>) => JSON.stringify(pbxInventory(state, T0));
      for (const y of [changed(b), changed({ ...a, phones })]) {
        assert.equal(inventoryKey(x) === inventoryKey(y), inventory(x) === inventory(y));
      }
      // A change the inventory does not show (phones) leaves the key as it was.
      assert.equal(inventoryKey(changed({ ...a, phones })), inventoryKey(x));
    }),
    { numRuns: 500 },
  );
});
