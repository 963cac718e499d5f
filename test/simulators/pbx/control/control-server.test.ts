import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { request } from 'undici';
import { stateEffects } from '../../../../simulators/pbx/control/state-effects.ts';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { sha512Hex } from '../../../../simulators/pbx/control/users-input.ts';
import { listScenarios } from '../../../../simulators/pbx/load-scenario.ts';
import { httpPbxControl } from '../../../../simulators/pbx/pbx-control.ts';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';
import { startControlPlane } from '../../../../simulators/shared/control/start-control-plane.ts';
import { MAX_CONTROL_BODY_BYTES } from '../../../../simulators/shared/http/control-server.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { FakeEndpoint } from './fake-endpoint.ts';

const START = 1_750_000_000_000;

async function setup(t: TestContext) {
  const clock = new VirtualClock({ start: START });
  const initial = defaultState(START);
  initial.os.linuxSectionsSource = 'synthetic';
  const store = new PbxStore(clock, initial);
  const cache = new SnapshotCache(store);
  const endpoint = new FakeEndpoint(store);
  const effects = stateEffects(store, cache, endpoint);
  const { server, url, client } = await startControlPlane(STATE_OPERATIONS, effects, {
    host: '127.0.0.1',
    port: 0,
  });
  t.after(() => closeServer(server));
  return { store, cache, endpoint, local: client, url, remote: httpPbxControl(url) };
}

/** A raw request, for inputs the typed client cannot send. */
async function raw(url: string, method: string, path: string, body?: string | Buffer) {
  const response = await request(`${url}${path}`, {
    method: method as 'GET',
    body,
    headers: { 'content-type': 'application/json' },
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}

test('state, scenarios and the monitoring settings round-trip over HTTP', async (t) => {
  const { store, local, remote } = await setup(t);
  assert.deepEqual(await remote.getState(), await local.getState());
  assert.deepEqual(await remote.listScenarios(), listScenarios());
  await remote.patchState({ sip: { onlinePhones: 0 } });
  assert.equal(store.read().sip.onlinePhones, 0);
  await remote.setTile({ on: false });
  assert.equal(store.read().monitoring.tileOn, false);
  await remote.setLicence({ valid: false });
  assert.equal(store.read().licence.valid, false);
  await remote.setMonitoringHosts([{ entry: '10.1.0.0/16', active: true }]);
  assert.deepEqual(store.read().monitoring.hosts, [{ entry: '10.1.0.0/16', active: true }]);
  await remote.setUsers([{ login: 'op', password: 'pw-1', admin: true }]);
  assert.deepEqual(store.read().users, [{ login: 'op', passwordSha512: sha512Hex('pw-1'), admin: true }]);
  assert.deepEqual((await remote.getState()).users, [{ login: 'op', admin: true }]);
  await remote.setInstanceName({ name: 'Other' });
  assert.equal(store.read().monitoring.instanceName, 'Other');
  await remote.setDefaultFormat({ format: 'json' });
  assert.equal(store.read().monitoring.defaultFormat, 'json');
  await remote.setCacheLifetime({ ms: 5_000 });
  assert.equal(store.read().monitoring.cacheLifetimeMs, 5_000);
});

test('loadScenario over HTTP loads a shipped scenario', async (t) => {
  const { store, remote } = await setup(t);
  const name = listScenarios().find((s) => s.name !== 'healthy')?.name ?? 'healthy';
  const revision = store.revision;
  await remote.loadScenario({ name });
  assert.ok(store.revision > revision);
  assert.ok((await remote.moduleLog()).some((e) => e.source === 'control' && e.data?.['scenario'] === name));
});

test('endpoint operations return the endpoint status over HTTP', async (t) => {
  const { store, endpoint, remote } = await setup(t);
  const moved = await remote.setMonitoringPort({ port: 7100 });
  assert.equal(store.read().monitoring.port, 7100);
  assert.deepEqual(moved, endpoint.status());
  assert.deepEqual(await remote.restartEndpoint(), endpoint.status());
  await remote.setTile({ on: false });
  assert.equal((await remote.endpointStatus()).state, 'stopped');
  assert.deepEqual(endpoint.applies.slice(0, 2), [{ restart: true }, { restart: true }]);
});

test('faults, warnings, module log, clock, snapshot and reset round-trip over HTTP', async (t) => {
  const { store, cache, remote } = await setup(t);
  await remote.injectFault({ name: 'linux-script-failure' });
  await remote.injectFault({ name: 'render-error' });
  assert.deepEqual((await remote.activeFaults()).active, ['linux-script-failure', 'render-error']);
  await remote.clearFault({ name: 'linux-script-failure' });
  assert.deepEqual(store.activeFaults(), ['render-error']);
  await remote.clearFaults();
  assert.deepEqual(store.activeFaults(), []);
  store.warn('Port 6556 is busy');
  assert.deepEqual(await remote.warnings(), ['Port 6556 is busy']);
  const log = await remote.moduleLog();
  assert.ok(log.length >= 4);
  const since = log.at(-2)!.seq;
  assert.deepEqual(await remote.moduleLog({ since }), log.slice(-1));
  assert.equal((await remote.now()).now, START);
  assert.equal((await remote.advanceClock({ ms: 31_000 })).now, START + 31_000);
  assert.equal((await remote.now()).now, START + 31_000);
  const serial = cache.get().serial;
  await remote.invalidateSnapshot();
  assert.notEqual(cache.get().serial, serial);
  await remote.injectFault({ name: 'render-error' });
  await remote.patchState({ sip: { onlinePhones: 1 } });
  await remote.reset();
  assert.equal(store.read().sip.onlinePhones, defaultState(START).sip.onlinePhones);
  assert.deepEqual((await remote.activeFaults()).active, []);
  assert.deepEqual(await remote.warnings(), []);
});

test('GET /faults lists active and known faults', async (t) => {
  const { url, remote } = await setup(t);
  await remote.injectFault({ name: 'collection-error' });
  const answer = await raw(url, 'GET', '/faults');
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.json.active, ['collection-error']);
  assert.ok(answer.json.known.includes('command-handover-failure'));
});

test('bad input gets 400 with a one-line message and changes nothing', async (t) => {
  const { store, url } = await setup(t);
  const revision = store.revision;
  const cases: [string, string, string, RegExp][] = [
    ['PATCH', '/state', '{"sip": {', /not valid JSON/],
    ['PATCH', '/state', '{"sip": {"onlinePhone": 1}}', /^unknown state field: sip\.onlinePhone$/],
    ['PUT', '/monitoring/hosts', '[{"entry": "10.0.0.0/33", "active": true}]', /10\.0\.0\.0\/33/],
    ['PUT', '/monitoring/hosts', '[{"entry": "fe80::1", "active": true}]', /fe80::1/],
    ['POST', '/faults', '{"name": "disk-full"}', /name must be one of render-error, .*, got "disk-full"/],
    ['DELETE', '/faults/disk-full', '', /name must be one of render-error, .*, got "disk-full"/],
    ['POST', '/clock/advance', '{"ms": -1000}', /ms must be an integer from 0/],
    ['PUT', '/monitoring/tile', '{"on": "yes"}', /on must be true or false/],
    ['PUT', '/monitoring/tile', '{"enabled": true}', /unknown field "enabled"/],
    ['PUT', '/monitoring/tile', '', /on must be true or false, got nothing/],
    ['PUT', '/monitoring/tile', '[true]', /must be a JSON object, got \[true\]/],
    ['PUT', '/monitoring/port', '{"port": 65536}', /port must be an integer from 0 to 65535/],
    ['PUT', '/monitoring/instance', '{"name": "a b"}', /name must be 1 to 64 characters/],
    ['PUT', '/scenario', '{"name": "no-such"}', /unknown scenario "no-such"/],
    ['GET', '/module-log?since=-1', '', /since must be an integer from 0 to \d+, got -1/],
  ];
  for (const [method, path, body, message] of cases) {
    const answer = await raw(url, method, path, body || undefined);
    assert.equal(answer.status, 400, `${method} ${path} ${body}`);
    assert.equal(answer.json.error, 'invalid_request');
    assert.match(answer.json.message, message);
    assert.doesNotMatch(answer.json.message, /\n/);
  }
  assert.equal(store.revision, revision);
  assert.equal((await raw(url, 'GET', '/clock')).json.now, START);
});

test('the HTTP client throws the server message on a non-2xx answer', async (t) => {
  const { remote } = await setup(t);
  await assert.rejects(remote.setMonitoringHosts([{ entry: '300.1.1.1', active: true }]), (error: Error) => {
    return (
      error instanceof ControlError &&
      error.status === 400 &&
      error.code === 'invalid_request' &&
      error.message.includes('300.1.1.1')
    );
  });
  await assert.rejects(remote.advanceClock({ ms: -1 }), /400 ms must be an integer from 0/);
});

test('unknown routes are 404 and wrong methods 405', async (t) => {
  const { url } = await setup(t);
  const missing = await raw(url, 'GET', '/nothing');
  assert.deepEqual([missing.status, missing.json.error], [404, 'not_found']);
  const wrong = await raw(url, 'DELETE', '/state');
  assert.deepEqual([wrong.status, wrong.json.error], [405, 'method_not_allowed']);
  assert.equal(wrong.headers['allow'], 'GET, PATCH');
});

test('an oversized body gets 413 and the server keeps serving', async (t) => {
  const { url, remote } = await setup(t);
  const big = Buffer.alloc(MAX_CONTROL_BODY_BYTES + 1, 0x20);
  const declared = await raw(url, 'PATCH', '/state', big).catch((error: Error) => ({ status: 0, error }));
  assert.equal(declared.status, 413);
  // Without content-length (chunked): the limit holds while reading.
  const chunks = Readable.from(
    (function* () {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(128 * 1024, 0x20);
    })(),
  );
  const streamed = await request(`${url}/state`, { method: 'PATCH', body: chunks }).then(
    async (response) => {
      await response.body.text();
      return response.statusCode;
    },
    () => 'connection closed',
  );
  assert.ok(streamed === 413 || streamed === 'connection closed', String(streamed));
  assert.equal((await remote.now()).now, START);
});

test('malformed HTTP on the socket does not stop the server', async (t) => {
  const { url, remote } = await setup(t);
  const { port } = new URL(url);
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.end('GARBAGE \u0000\u0001 NOT-HTTP\r\n\r\n'),
    );
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  assert.match(reply, /^HTTP\/1\.1 400/);
  assert.equal((await remote.now()).now, START);
});
