import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { stateEffects } from '../../../../simulators/pbx/control/state-effects.ts';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { Resolver } from '../../../../simulators/pbx/resolver/resolver.ts';
import { resolverEffects } from '../../../../simulators/pbx/resolver/resolver-effects.ts';
import { RESOLVER_OPERATIONS } from '../../../../simulators/pbx/resolver/resolver-operations.ts';
import { RESOLVER_OVERLAY_RULES } from '../../../../simulators/pbx/resolver/resolver-overlay-rules.ts';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { MAX_SEARCH_LOG_ENTRIES } from '../../../../simulators/pbx/state/resolver-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { combineOperations } from '../../../../simulators/shared/control/control-operation.ts';
import { inProcessClient } from '../../../../simulators/shared/control/in-process-client.ts';
import { startControlPlane } from '../../../../simulators/shared/control/start-control-plane.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { FakeEndpoint } from '../control/fake-endpoint.ts';
import { endpoint, provider } from './resolver-fixture.ts';

const NOW = 1_750_000_000_000;

function pbx() {
  const clock = new VirtualClock({ start: NOW });
  const store = new PbxStore(clock, defaultState(NOW));
  return { clock, store, resolver: new Resolver(store) };
}

async function twoEndpoints(t: TestContext) {
  const empty = await endpoint(t, { config: { fallback: { body: '{}' } } });
  const anna = await endpoint(t, { config: { fallback: { body: '{"name":"Anna"}' } } });
  return { empty, anna };
}

test('RESOLVER-NO-RESULT-NEXT-PROVIDER RESOLVER-CALLER-NAME: after no result the next provider resolves and the caller ID shows it', async (t) => {
  const { empty, anna } = await twoEndpoints(t);
  const { resolver } = pbx();
  resolver.setProviders([
    provider(`${empty.urls.base}/?t={tel}`, { id: 'a' }),
    provider(`${anna.urls.base}/?t={tel}`, { id: 'b' }),
  ]);
  const result = await resolver.resolve('0301234567');
  assert.equal(result.source, 'provider:b');
  assert.deepEqual(
    result.attempts.map((a) => a.state),
    ['no-result', 'resolved'],
  );
  assert.equal(resolver.callerId()?.name?.displayName, 'Anna');
  assert.equal(resolver.callerId()?.number, '+49301234567');
});

test('RESOLVER-UNSPEC-FAILURE-FALLBACK: after a failed lookup the next provider is asked too; disabled providers are not', async (t) => {
  const failing = await endpoint(t, { config: { fallback: { status: 503 } } });
  const { anna } = await twoEndpoints(t);
  const { resolver } = pbx();
  resolver.setProviders([
    provider(`${anna.urls.base}/?t={tel}`, { id: 'off', enabled: false }),
    provider(`${failing.urls.base}/?t={tel}`, { id: 'a' }),
    provider(`${anna.urls.base}/?t={tel}`, { id: 'b' }),
  ]);
  const result = await resolver.resolve('0301234567');
  assert.deepEqual(
    result.attempts.map((a) => `${a.provider} ${a.state}`),
    ['a failed', 'b resolved'],
  );
  assert.equal(anna.control.requests().length, 1);
});

test('RESOLVER-NO-RESULT-ADDRESS-BOOK: with no provider result the address book answers when the setting is on', async (t) => {
  const { empty } = await twoEndpoints(t);
  const { resolver } = pbx();
  resolver.setProviders([provider(`${empty.urls.base}/?t={tel}`)]);
  resolver.setAddressBook([
    { number: '+49301234567', firstName: 'Bea', lastName: 'Book', company: '', source: 'manual' },
  ]);
  assert.equal((await resolver.resolve('030 1234567')).source, 'address-book');
  resolver.setSettings({ addressBookFallback: false });
  const off = await resolver.resolve('030 1234567');
  assert.equal(off.state, 'no-result');
  assert.equal(resolver.callerId()?.state, 'no-result');
});

test('RESOLVER-CACHE-OFF RESOLVER-CACHE-SUCCESS-ONLY RESOLVER-UNSPEC-CACHE: only resolved answers are cached, only when switched on, for one hour', async (t) => {
  const { empty, anna } = await twoEndpoints(t);
  const { resolver, clock } = pbx();
  resolver.setProviders([provider(`${anna.urls.base}/?t={tel}`)]);
  await resolver.resolve('0301');
  await resolver.resolve('0301');
  assert.equal(anna.control.requests().length, 2, 'cache off: every resolution asks');
  resolver.setProviders([provider(`${anna.urls.base}/?t={tel}`, { cache: true })]);
  await resolver.resolve('0301');
  const hit = await resolver.resolve('0301');
  assert.equal(hit.source, 'cache:crm');
  assert.equal(anna.control.requests().length, 3);
  clock.advance(3_600_000);
  await resolver.resolve('0301');
  assert.equal(anna.control.requests().length, 4, 'expired after an hour');
  resolver.setProviders([provider(`${empty.urls.base}/?t={tel}`, { cache: true })]);
  await resolver.resolve('0301');
  await resolver.resolve('0301');
  assert.equal(empty.control.requests().length, 2, 'no result is never cached');
});

test('RESOLVER-SAVE-TO-ADDRESS-BOOK: a resolved result is saved only with the switch on', async (t) => {
  const { anna } = await twoEndpoints(t);
  const { resolver } = pbx();
  resolver.setProviders([provider(`${anna.urls.base}/?t={tel}`)]);
  await resolver.resolve('0301');
  assert.deepEqual(resolver.addressBook(), []);
  resolver.setProviders([provider(`${anna.urls.base}/?t={tel}`, { saveToAddressBook: true })]);
  await resolver.resolve('0301');
  assert.deepEqual(resolver.addressBook(), [
    { number: '+49301', firstName: '', lastName: 'Anna', company: '', source: 'crm' },
  ]);
});

test('RESOLVER-DIAG-TEST-ONE-PROVIDER RESOLVER-TRIGGER-SETTINGS-TEST RESOLVER-TRIGGER-UI-INTEGRATION: the settings test asks one provider; neither it nor the UI query sets the caller ID', async (t) => {
  const { empty, anna } = await twoEndpoints(t);
  const { resolver } = pbx();
  resolver.setProviders([
    provider(`${anna.urls.base}/?t={tel}`, { id: 'a' }),
    provider(`${empty.urls.base}/?t={tel}`, { id: 'b' }),
  ]);
  const test1 = await resolver.testProvider('b', '0301');
  assert.equal(test1.state, 'no-result');
  assert.equal(anna.control.requests().length, 0);
  assert.equal(empty.control.requests().length, 1);
  const ui = await resolver.resolve('0301', 'ui-integration');
  assert.equal(ui.state, 'resolved');
  assert.equal(resolver.callerId(), null);
  await assert.rejects(resolver.testProvider('nope', '0301'), /no provider with id "nope"/);
});

test('RESOLVER-DIAG-LOG RESOLVER-DIAG-LOG-EXPERT: the search log shows URL, status and hits; redirects and the encoded URI only in expert mode', async (t) => {
  const ep = await endpoint(t, {
    config: { routes: { '/a': { redirect: { location: '/b' } }, '/b': { body: '{"name":"Anna"}' } } },
  });
  const { resolver } = pbx();
  resolver.setProviders([
    provider(`${ep.urls.base}/a?t={tel}&k={password}`, { fields: { password: { value: 'hunter22' } } }),
  ]);
  await resolver.resolve('0301');
  const plain = resolver.searchLog();
  assert.ok(plain.some((e) => e.step === 'url' && e.message.includes('/a?t=+49301&k=***')));
  assert.ok(plain.some((e) => e.step === 'response' && e.data?.['status'] === 200));
  assert.ok(plain.some((e) => e.step === 'parser' && e.data?.['hit'] === true));
  assert.ok(!plain.some((e) => e.expert));
  resolver.setSettings({ expertMode: true });
  const expert = resolver.searchLog();
  assert.ok(expert.some((e) => e.step === 'redirect'));
  assert.ok(expert.some((e) => e.step === 'encoded-uri'));
  assert.doesNotMatch(JSON.stringify(expert), /hunter22/);
  const last = expert.at(-1)?.seq ?? 0;
  assert.deepEqual(resolver.searchLog(last), []);
});

test('the state keeps the resolver part: GET /state masks provider secrets; a reset empties log and caller ID', async (t) => {
  const { anna } = await twoEndpoints(t);
  const { store, resolver } = pbx();
  resolver.setProviders([
    provider(`${anna.urls.base}/?t={tel}`, {
      fields: { password: { value: 'hunter22' }, k: { value: 'v' } },
    }),
  ]);
  await resolver.resolve('0301');
  const control = inProcessClient(
    STATE_OPERATIONS,
    stateEffects(store, new SnapshotCache(store), new FakeEndpoint(store), RESOLVER_OVERLAY_RULES),
  );
  const state = await control.getState();
  assert.equal(state.resolver.providers[0]?.fields?.['password']?.value, '***');
  assert.equal(state.resolver.providers[0]?.fields?.['k']?.value, 'v');
  assert.ok(state.resolver.searchLog.length > 0);
  await control.reset();
  assert.deepEqual(store.read().resolver.searchLog, []);
  assert.equal(store.read().resolver.callerId, null);
  await assert.rejects(control.patchState({ resolver: { providers: [{ id: 'x' }] } }), /providers/);
  await assert.rejects(control.patchState({ resolver: { countryCode: '049' } }), /countryCode/);
  await control.patchState({ resolver: { countryCode: '41' } });
  assert.equal(resolver.settings().countryCode, '41');
});

test('the control routes set providers, resolve, and read caller ID and search log over HTTP', async (t) => {
  const { anna } = await twoEndpoints(t);
  const { store, resolver } = pbx();
  const effects = {
    ...stateEffects(store, new SnapshotCache(store), new FakeEndpoint(store)),
    ...resolverEffects(resolver),
  };
  const operations = combineOperations(STATE_OPERATIONS, RESOLVER_OPERATIONS);
  const { server, url } = await startControlPlane(operations, effects, { host: '127.0.0.1', port: 0 });
  t.after(() => closeServer(server));
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected loosely in this test
    const answer: any = response.status === 204 ? null : await response.json();
    return { status: response.status, body: answer };
  };
  const put = await call('PUT', '/resolver/providers', [
    provider(`${anna.urls.base}/?t={tel}`, { fields: { password: { value: 'pw12345' } } }),
  ]);
  assert.equal(put.status, 200);
  assert.equal(put.body[0].fields.password.value, '***');
  assert.equal((await call('PUT', '/resolver/providers', [{ id: 'x' }])).status, 400);
  assert.equal((await call('PATCH', '/resolver/settings', { countryCode: 'abc' })).status, 400);
  const resolved = await call('POST', '/resolver/resolutions', { number: '0301' });
  assert.equal(resolved.body.state, 'resolved');
  assert.equal(resolved.body.attempts[0].hits[0].result, 'Anna');
  assert.equal((await call('GET', '/resolver/caller-id')).body.name.displayName, 'Anna');
  const log = await call('GET', '/resolver/search-log?expert=true');
  assert.ok(log.body.some((e: { step: string }) => e.step === 'encoded-uri'));
  assert.equal((await call('GET', '/resolver/search-log?since=x')).status, 400);
  assert.equal(
    (
      await call('POST', '/resolver/resolutions', {
        number: '0301',
        trigger: 'settings-test',
        providerId: 'zz',
      })
    ).status,
    404,
  );
  assert.equal((await call('DELETE', '/resolver/cache')).status, 204);
  assert.equal(
    (await call('PUT', '/resolver/address-book', [{ number: '+491', firstName: 'A' }])).status,
    200,
  );
  assert.equal((await call('GET', '/resolver/address-book')).body[0].source, 'manual');
});

test('the search log keeps exactly the newest MAX_SEARCH_LOG_ENTRIES lines, in order', async () => {
  const { store, resolver } = pbx();
  resolver.setProviders([]);
  await resolver.resolve('0301');
  const perResolution = store.read().resolver.searchLog.length;
  assert.ok(perResolution > 0);
  const runs = Math.ceil(MAX_SEARCH_LOG_ENTRIES / perResolution) + 3;
  for (let i = 1; i < runs; i++) await resolver.resolve('0301');
  const log = store.read().resolver.searchLog;
  assert.equal(log.length, MAX_SEARCH_LOG_ENTRIES);
  const last = runs * perResolution;
  assert.deepEqual(
    log.map((e) => e.seq),
    Array.from({ length: MAX_SEARCH_LOG_ENTRIES }, (_, i) => last - MAX_SEARCH_LOG_ENTRIES + 1 + i),
  );
});
