import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateEffects } from '../../../../simulators/pbx/control/state-effects.ts';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { listScenarios, resolveScenario } from '../../../../simulators/pbx/load-scenario.ts';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';
import { inProcessClient } from '../../../../simulators/shared/control/in-process-client.ts';
import { FakeEndpoint } from './fake-endpoint.ts';

const START = 1_750_000_000_000;

function setup() {
  const clock = new VirtualClock({ start: START });
  const initial = resolveScenario('healthy', START);
  initial.monitoring.port = 0;
  initial.monitoring.host = '127.0.0.3';
  const store = new PbxStore(clock, initial);
  const cache = new SnapshotCache(store);
  const endpoint = new FakeEndpoint(store);
  return {
    store,
    cache,
    endpoint,
    control: inProcessClient(STATE_OPERATIONS, stateEffects(store, cache, endpoint)),
  };
}

/** A scenario other than the start one, so loading it changes something. */
function another(): string {
  const other = listScenarios().find((s) => s.name !== 'healthy');
  assert.ok(other, 'the simulator ships more than one scenario');
  return other.name;
}

test('listScenarios lists the shipped scenarios', async () => {
  const { control } = setup();
  const names = (await control.listScenarios()).map((s) => s.name);
  assert.ok(names.includes('healthy'));
  assert.deepEqual(
    names,
    listScenarios().map((s) => s.name),
  );
});

test('loadScenario replaces the state but keeps the monitoring host and port', async () => {
  const { store, cache, endpoint, control } = setup();
  const name = another();
  const serial = cache.get().serial;
  await control.loadScenario({ name });
  const expected = resolveScenario(name, START);
  expected.monitoring.port = 0;
  expected.monitoring.host = '127.0.0.3';
  assert.deepEqual(store.read(), expected);
  assert.notEqual(cache.get().serial, serial);
  assert.ok(endpoint.applies.length > 0);
});

test('reset after loadScenario returns to the state the simulator started with', async () => {
  const { store, control } = setup();
  const start = structuredClone(store.read());
  await control.loadScenario({ name: another() });
  await control.reset();
  assert.deepEqual(store.read(), start);
});

test('an unknown scenario is refused with the known names', async () => {
  const { control } = setup();
  await assert.rejects(control.loadScenario({ name: 'no-such-scenario' }), (error: Error) => {
    return error instanceof ControlError && error.status === 400 && error.message.includes('healthy');
  });
  await assert.rejects(control.loadScenario({ name: 3 as unknown as string }), /name must be a string/);
});
