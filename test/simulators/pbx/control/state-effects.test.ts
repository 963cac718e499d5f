import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateEffects } from '../../../../simulators/pbx/control/state-effects.ts';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { sha512Hex } from '../../../../simulators/pbx/control/users-input.ts';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { FAULTS, PbxStore } from '../../../../simulators/pbx/state/store.ts';
import type { Clock } from '../../../../simulators/shared/clock.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';
import { inProcessClient } from '../../../../simulators/shared/control/in-process-client.ts';
import { FakeEndpoint } from './fake-endpoint.ts';

const START = 1_750_000_000_000;

/** A refusal as every client reports it: 400 `invalid_request` with one line naming the field. */
const invalid = (error: unknown) =>
  error instanceof ControlError && error.status === 400 && error.code === 'invalid_request';

function setup() {
  const clock = new VirtualClock({ start: START });
  const initial = defaultState(START);
  initial.os.linuxSectionsSource = 'synthetic';
  const store = new PbxStore(clock, initial);
  const cache = new SnapshotCache(store);
  const endpoint = new FakeEndpoint(store);
  const control = inProcessClient(STATE_OPERATIONS, stateEffects(store, cache, endpoint));
  return { clock, store, cache, endpoint, control };
}

test('getState is a copy without password hashes', async () => {
  const { store, control } = setup();
  const state = await control.getState();
  assert.deepEqual(state.users, [
    { login: '123', admin: false },
    { login: 'admin', admin: true },
  ]);
  assert.ok(!JSON.stringify(state).includes(store.read().users[0]!.passwordSha512));
  state.sip.onlinePhones = 0;
  assert.notEqual(store.read().sip.onlinePhones, 0);
});

test('patchState merges, lets the endpoint follow, and refuses unknown fields without a change', async () => {
  const { store, endpoint, control } = setup();
  await control.patchState({ sip: { onlinePhones: 0 }, monitoring: { tileOn: false } });
  assert.equal(store.read().sip.onlinePhones, 0);
  assert.equal(store.read().sip.knownPhones, defaultState(START).sip.knownPhones);
  assert.equal(endpoint.applies.length, 1);
  const revision = store.revision;
  await assert.rejects(control.patchState({ sip: { onlinePhone: 1 } }), invalid);
  await assert.rejects(control.patchState({ sip: { onlinePhones: 'none' } }), invalid);
  await assert.rejects(control.patchState('sip'), invalid);
  assert.equal(store.revision, revision);
});

test('setTile and setLicence change the state and wait for the endpoint', async () => {
  const { store, endpoint, control } = setup();
  await control.setTile({ on: false });
  assert.equal(store.read().monitoring.tileOn, false);
  assert.equal((await control.endpointStatus()).state, 'stopped');
  await control.setTile({ on: true });
  await control.setLicence({ valid: false });
  assert.equal(store.read().licence.valid, false);
  assert.equal((await control.endpointStatus()).state, 'stopped');
  assert.equal(endpoint.applies.length, 3);
  await assert.rejects(
    control.setTile({ on: 'off' as unknown as boolean }),
    /on must be true or false, got "off"/,
  );
  await assert.rejects(control.setLicence({ valid: 1 as unknown as boolean }), /valid must be true or false/);
});

test('setUsers keeps only SHA-512 hex and never logs the password', async () => {
  const { store, control } = setup();
  await control.setUsers([{ login: 'ops', password: 'clear-Text-9', admin: true }]);
  assert.deepEqual(store.read().users, [
    { login: 'ops', passwordSha512: sha512Hex('clear-Text-9'), admin: true },
  ]);
  assert.ok(!JSON.stringify(store.read()).includes('clear-Text-9'));
  assert.ok(!JSON.stringify(await control.moduleLog()).includes('clear-Text-9'));
  await assert.rejects(control.setUsers([{ login: 'a:b', password: 'x' }]), invalid);
});

test('setMonitoringHosts stores valid entries and refuses an invalid CIDR', async () => {
  const { store, control } = setup();
  await control.setMonitoringHosts([
    { entry: '192.0.2.0/24', active: true },
    { entry: '198.51.100.7', active: false },
  ]);
  assert.deepEqual(store.read().monitoring.hosts, [
    { entry: '192.0.2.0/24', active: true },
    { entry: '198.51.100.7', active: false },
  ]);
  await assert.rejects(
    control.setMonitoringHosts([{ entry: '192.0.2.0/33', active: true }]),
    (error: Error) => {
      return invalid(error) && error.message.includes('192.0.2.0/33');
    },
  );
  assert.equal(store.read().monitoring.hosts.length, 2);
});

test('instance name, default format and cache lifetime are set after checking', async () => {
  const { store, control } = setup();
  await control.setInstanceName({ name: 'Mon_2' });
  await control.setDefaultFormat({ format: 'xml' });
  await control.setCacheLifetime({ ms: 0 });
  assert.equal(store.read().monitoring.instanceName, 'Mon_2');
  assert.equal(store.read().monitoring.defaultFormat, 'xml');
  assert.equal(store.read().monitoring.cacheLifetimeMs, 0);
  await assert.rejects(control.setInstanceName({ name: '' }), invalid);
  await assert.rejects(control.setDefaultFormat({ format: 'text' as 'xml' }), invalid);
  await assert.rejects(control.setCacheLifetime({ ms: -1 }), /ms must be an integer from 0/);
  assert.equal(store.read().monitoring.cacheLifetimeMs, 0);
});

test('setMonitoringPort and restartEndpoint run the module start again', async () => {
  const { store, endpoint, control } = setup();
  const status = await control.setMonitoringPort({ port: 7001 });
  assert.equal(store.read().monitoring.port, 7001);
  assert.deepEqual(status, endpoint.status());
  assert.deepEqual(endpoint.applies.at(-1), { restart: true });
  await control.restartEndpoint();
  assert.deepEqual(endpoint.applies, [{ restart: true }, { restart: true }]);
  await assert.rejects(
    control.setMonitoringPort({ port: 65_536 }),
    /port must be an integer from 0 to 65535/,
  );
});

test('a listen failure does not fail the operation: the status is returned', async () => {
  const { endpoint, control } = setup();
  endpoint.failNext = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
  const status = await control.restartEndpoint();
  assert.deepEqual(status, endpoint.status());
});

test('faults are switched on and off by name and drop the snapshot cache', async () => {
  const { store, cache, control } = setup();
  const before = cache.get().serial;
  await control.injectFault({ name: 'render-error' });
  await control.injectFault({ name: 'collection-error' });
  assert.deepEqual((await control.activeFaults()).active, ['render-error', 'collection-error']);
  assert.ok(store.hasFault('render-error'));
  const during = cache.get().serial;
  assert.notEqual(during, before);
  await control.clearFault({ name: 'render-error' });
  assert.deepEqual((await control.activeFaults()).active, ['collection-error']);
  assert.notEqual(cache.get().serial, during);
  await control.clearFaults();
  assert.deepEqual((await control.activeFaults()).active, []);
  await assert.rejects(control.injectFault({ name: 'disk-full' as 'render-error' }), (error: Error) => {
    return invalid(error) && FAULTS.every((name) => error.message.includes(name));
  });
  await assert.rejects(control.clearFault({ name: 'nope' as 'render-error' }), invalid);
});

test('the module log records control operations with source control and filters by seq', async () => {
  const { control } = setup();
  await control.setTile({ on: false });
  const all = await control.moduleLog();
  const line = all.find((e) => e.source === 'control');
  assert.ok(line, 'a control line');
  assert.match(line.message, /tile switched off/);
  const last = all.at(-1)!.seq;
  await control.setTile({ on: true });
  const fresh = await control.moduleLog({ since: last });
  assert.ok(fresh.length > 0 && fresh.every((e) => e.seq > last));
  await assert.rejects(control.moduleLog({ since: -1 }), /since must be an integer/);
});

test('warnings come from the store', async () => {
  const { store, control } = setup();
  store.warn('Port 6556 is busy');
  assert.deepEqual(await control.warnings(), ['Port 6556 is busy']);
});

test('advanceClock moves the virtual clock and refuses negative or fractional steps', async () => {
  const { control } = setup();
  assert.equal((await control.now()).now, START);
  assert.equal((await control.advanceClock({ ms: 30_001 })).now, START + 30_001);
  assert.equal((await control.now()).now, START + 30_001);
  await assert.rejects(control.advanceClock({ ms: -1 }), /ms must be an integer from 0/);
  await assert.rejects(control.advanceClock({ ms: 0.5 }), invalid);
  await assert.rejects(control.advanceClock({ ms: Number.POSITIVE_INFINITY }), invalid);
  assert.equal((await control.now()).now, START + 30_001);
});

test('advanceClock explains a clock that cannot be advanced', async () => {
  const fixed: Clock = { mode: 'frozen', now: () => START, setTimer: () => 0, clearTimer: () => {} };
  const store = new PbxStore(fixed, defaultState(START));
  const control = inProcessClient(
    STATE_OPERATIONS,
    stateEffects(store, new SnapshotCache(store), new FakeEndpoint(store)),
  );
  await assert.rejects(control.advanceClock({ ms: 1 }), /cannot be advanced/);
});

test('invalidateSnapshot makes the next request take a fresh snapshot', async () => {
  const { cache, control } = setup();
  const first = cache.get().serial;
  assert.equal(cache.get().serial, first);
  await control.invalidateSnapshot();
  assert.notEqual(cache.get().serial, first);
});

test('reset returns state, faults, warnings and log to the start and lets the endpoint follow', async () => {
  const { store, cache, endpoint, control } = setup();
  const start = structuredClone(store.read());
  await control.patchState({ sip: { onlinePhones: 0 } });
  await control.setUsers([{ login: 'x', password: 'y' }]);
  await control.injectFault({ name: 'render-error' });
  store.warn('a warning');
  const serial = cache.get().serial;
  const applies = endpoint.applies.length;
  await control.reset();
  assert.deepEqual(store.read(), start);
  assert.deepEqual((await control.activeFaults()).active, []);
  assert.deepEqual(await control.warnings(), []);
  assert.deepEqual(await control.moduleLog(), []);
  assert.notEqual(cache.get().serial, serial);
  assert.equal(endpoint.applies.length, applies + 1);
});
