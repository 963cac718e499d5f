import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type TestContext, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { request } from 'undici';
import { parse } from 'yaml';
import { start as startEndpoint } from '../../../../simulators/customer-endpoint/index.ts';
import { stateEffects } from '../../../../simulators/pbx/control/state-effects.ts';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { start } from '../../../../simulators/pbx/index.ts';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { startControlPlane } from '../../../../simulators/shared/control/start-control-plane.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { FakeEndpoint } from './fake-endpoint.ts';

const SCHEMAS = new URL('../../../../schemas/', import.meta.url);
// The provider schema's own $id, so the document's relative `./resolver-provider.schema.json` resolves.
const DOCUMENT_ID = 'https://pbx-conformance.local/schemas/pbx-control.openapi.yaml';
const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addSchema(
  { ...parse(readFileSync(new URL('pbx-control.openapi.yaml', SCHEMAS), 'utf8')), $id: DOCUMENT_ID },
  DOCUMENT_ID,
);
// Draft-07 and 2020-12 read this schema's keywords alike; Ajv2020 only lacks the draft-07 meta-schema.
const { $schema: _draft, ...providerSchema } = JSON.parse(
  readFileSync(new URL('resolver-provider.schema.json', SCHEMAS), 'utf8'),
) as Record<string, unknown>;
ajv.addSchema(providerSchema);

function assertSchema(name: string, value: unknown): void {
  assertPointer(`components/schemas/${name}`, value);
}

/** Validates against the schema at a JSON pointer into the document (`/` inside a key as `~1`). */
function assertPointer(pointer: string, value: unknown): void {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`);
  assert.ok(validate, `schema ${pointer}`);
  assert.ok(validate(value), `${pointer}: ${ajv.errorsText(validate.errors)}`);
}

const responseOf = (path: string, method: string, status = '200') =>
  `paths/${path.replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`;

async function setup(t: TestContext) {
  const store = new PbxStore(new VirtualClock({ start: 1_750_000_000_000 }), defaultState(1_750_000_000_000));
  const cache = new SnapshotCache(store);
  const effects = stateEffects(store, cache, new FakeEndpoint(store));
  const { server, url, client } = await startControlPlane(STATE_OPERATIONS, effects, {
    host: '127.0.0.1',
    port: 0,
  });
  t.after(() => closeServer(server));
  return { url, control: client };
}

async function get(
  url: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) {
  const response = await request(`${url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: (text === '' ? undefined : JSON.parse(text)) as unknown };
}

test('answers on the wire match the schemas of the OpenAPI document', async (t) => {
  const { url, control } = await setup(t);
  await control.setTile({ on: false });
  await control.injectFault({ name: 'render-error' });
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

test('answers of the resolver routes match the schemas of the OpenAPI document', async (t) => {
  const endpoint = await startEndpoint({
    config: {
      routes: {
        '/lookup': {
          lookup: {
            param: 'tel',
            plusAsSpace: false,
            records: { '+49301234567': '{"name":"Erika Mustermann"}' },
          },
        },
        '/moved': { redirect: { location: '/lookup?tel=%2B49301234567' } },
        '/gone': { status: 404, body: 'no such customer' },
      },
    },
  });
  t.after(() => endpoint.close());
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const url = pbx.urls.control;
  const parser = { matcher: '"name":"([^"]*)"', formatter: '\\1' };
  const providers = [
    { id: 'gone', type: 'HTTP', url: `${endpoint.urls.base}/gone?tel={tel}`, parsers: [parser] },
    {
      id: 'crm',
      type: 'HTTP',
      url: `${endpoint.urls.base}/moved?tel={tel}&key={apiKey}`,
      fields: { apiKey: { value: 'k3y', secret: true } },
      parsers: [parser, { matcher: '(?>x)', formatter: '\\0', optionUi: true }],
      cache: true,
      saveToAddressBook: true,
    },
  ];
  const put = await get(url, 'PUT', '/resolver/providers', providers);
  assert.equal(put.status, 200);
  assertPointer(responseOf('/resolver/providers', 'put'), put.json);
  assert.equal((put.json as { fields?: { apiKey?: { value: string } } }[])[1]?.fields?.apiKey?.value, '***');
  assertPointer(
    responseOf('/resolver/providers', 'get'),
    (await get(url, 'GET', '/resolver/providers')).json,
  );

  assertSchema('ResolverSettings', (await get(url, 'GET', '/resolver/settings')).json);
  assertSchema(
    'ResolverSettings',
    (await get(url, 'PATCH', '/resolver/settings', { expertMode: true })).json,
  );
  assert.equal((await get(url, 'GET', '/resolver/caller-id')).json, null);

  const first = await get(url, 'POST', '/resolver/resolutions', { number: '030 1234567' });
  assert.equal(first.status, 200);
  assertSchema('Resolution', first.json);
  const resolution = first.json as {
    state: string;
    attempts: { state: string; hops: { next: string | null }[]; hits: { notes: unknown[] }[] }[];
  };
  assert.equal(resolution.state, 'resolved');
  assert.deepEqual(
    resolution.attempts.map((a) => a.state),
    ['failed', 'resolved'],
  );
  assert.equal(resolution.attempts[1]?.hops[0]?.next, 'redirect');
  assert.ok((resolution.attempts[1]?.hits[1]?.notes.length ?? 0) > 0, 'the atomic group is noted');
  const cached = await get(url, 'POST', '/resolver/resolutions', { number: '+49 30 1234567' });
  assertSchema('Resolution', cached.json);
  assert.equal((cached.json as { source: string }).source, 'cache:crm');
  assertSchema('Resolution', (await get(url, 'POST', '/resolver/resolutions', { number: 'anonymous' })).json);
  const test = await get(url, 'POST', '/resolver/resolutions', {
    number: '030 1234567',
    trigger: 'settings-test',
    providerId: 'gone',
  });
  assertSchema('Resolution', test.json);

  assertSchema('CallerIdResult', (await get(url, 'GET', '/resolver/caller-id')).json);
  const log = (await get(url, 'GET', '/resolver/search-log?since=0&expert=true')).json as unknown[];
  assert.ok(log.length > 10);
  for (const line of log) assertSchema('SearchLogEntry', line);
  const book = await get(url, 'PUT', '/resolver/address-book', [{ number: '+4940123', lastName: 'Muster' }]);
  assertPointer(responseOf('/resolver/address-book', 'put'), book.json);
  assertPointer(
    responseOf('/resolver/address-book', 'get'),
    (await get(url, 'GET', '/resolver/address-book')).json,
  );
  assert.equal((await get(url, 'DELETE', '/resolver/cache')).status, 204);

  for (const [method, path, body, status] of [
    ['POST', '/resolver/resolutions', { number: '1', trigger: 'settings-test', providerId: 'nope' }, 404],
    ['POST', '/resolver/resolutions', { trigger: 'call' }, 400],
    ['PATCH', '/resolver/settings', { countryCode: '049' }, 400],
    ['PUT', '/resolver/providers', [{ id: 'x' }], 400],
    ['PUT', '/resolver/address-book', [{ number: '+491', phone: '1' }], 400],
    ['GET', '/resolver/search-log?since=-1', undefined, 400],
  ] as const) {
    const answer = await get(url, method, path, body);
    assert.equal(answer.status, status, `${method} ${path}`);
    assertSchema('Error', answer.json);
  }
});

test('the documented resolver request bodies accept what the harness sends and refuse what the server refuses', () => {
  const accepts = (name: string, value: unknown) =>
    ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`)?.(value);
  assert.equal(accepts('ResolutionRequest', { number: '030 1234567' }), true);
  assert.equal(
    accepts('ResolutionRequest', { number: '1', trigger: 'settings-test', providerId: 'crm' }),
    true,
  );
  assert.equal(accepts('ResolutionRequest', { number: '1', trigger: 'settings-test' }), false);
  assert.equal(accepts('ResolutionRequest', { number: '1', trigger: 'dial' }), false);
  assert.equal(accepts('ResolverSettingsChange', { countryCode: '1', expertMode: false }), true);
  assert.equal(accepts('ResolverSettingsChange', { countryCode: '049' }), false);
  assert.equal(accepts('AddressBookEntryInput', { number: '+491', source: 'manual' }), true);
  assert.equal(accepts('AddressBookEntryInput', { lastName: 'Muster' }), false);
});
