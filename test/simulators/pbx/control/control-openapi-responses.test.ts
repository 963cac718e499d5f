import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type TestContext, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { request } from 'undici';
import { parse } from 'yaml';
import { createControlServer } from '../../../../simulators/pbx/control/control-server.ts';
import { InProcessPbxControl } from '../../../../simulators/pbx/control/in-process-control.ts';
import { SnapshotCache } from '../../../../simulators/pbx/monitoring/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { closeServer } from '../../../../simulators/pbx/web/web-server.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { FakeEndpoint } from './fake-endpoint.ts';

const DOCUMENT_ID = 'pbx-control.openapi';
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(
  {
    $id: DOCUMENT_ID,
    ...parse(readFileSync(new URL('../../../../schemas/pbx-control.openapi.yaml', import.meta.url), 'utf8')),
  },
  DOCUMENT_ID,
);

function assertSchema(name: string, value: unknown): void {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
  assert.ok(validate, `schema ${name}`);
  assert.ok(validate(value), `${name}: ${ajv.errorsText(validate.errors)}`);
}

async function setup(t: TestContext) {
  const store = new PbxStore(new VirtualClock({ start: 1_750_000_000_000 }), defaultState(1_750_000_000_000));
  const cache = new SnapshotCache(store);
  const control = new InProcessPbxControl(store, cache, new FakeEndpoint(store));
  const { server, url } = await createControlServer(control, { host: '127.0.0.1', port: 0 });
  t.after(() => closeServer(server));
  return { url, control };
}

async function get(url: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const response = await request(`${url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, json: (await response.body.json()) as unknown };
}

test('answers on the wire match the schemas of the OpenAPI document', async (t) => {
  const { url, control } = await setup(t);
  await control.setTile(false);
  await control.injectFault('render-error');
  assertSchema('PublicState', (await get(url, 'GET', '/state')).json);
  assertSchema('EndpointStatus', (await get(url, 'GET', '/monitoring/status')).json);
  assertSchema('EndpointStatus', (await get(url, 'PUT', '/monitoring/port', { port: 0 })).json);
  assertSchema('Faults', (await get(url, 'GET', '/faults')).json);
  assertSchema('ClockTime', (await get(url, 'GET', '/clock')).json);
  assertSchema('ClockTime', (await get(url, 'POST', '/clock/advance', { ms: 1 })).json);
  const log = (await get(url, 'GET', '/module-log')).json as unknown[];
  assert.ok(log.length > 0);
  for (const entry of log) assertSchema('ModuleLogEntry', entry);
  for (const scenario of (await get(url, 'GET', '/scenarios')).json as unknown[])
    assertSchema('ScenarioInfo', scenario);
  for (const [method, path, body] of [
    ['GET', '/nothing', undefined],
    ['POST', '/state', undefined],
    ['PUT', '/monitoring/tile', { on: 1 }],
  ] as const) {
    const answer = await get(url, method, path, body);
    assert.ok(answer.status >= 400, path);
    assertSchema('Error', answer.json);
  }
});

test('the documented request bodies accept what the typed client sends', () => {
  const check = (name: string, value: unknown) => assertSchema(name, value);
  check('UserInput', { login: '123', password: 'Pass123', admin: false });
  check('MonitoringHostEntry', { entry: '192.0.2.0/24', active: true });
  check('StateOverlay', { sip: { onlinePhones: 0 }, raid: null });
  const overlay = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/StateOverlay`);
  assert.equal(overlay?.({ sipp: {} }), false);
});
