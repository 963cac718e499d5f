import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attentionEffects } from '../../../../simulators/pbx/events/attention-effects.ts';
import { AttentionForwarder } from '../../../../simulators/pbx/events/attention-forwarder.ts';
import { ATTENTION_OPERATIONS } from '../../../../simulators/pbx/events/attention-operations.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { serveOperations } from '../../../../simulators/shared/control/serve-operations.ts';
import { createControlDispatcher } from '../../../../simulators/shared/http/control-dispatch.ts';
import { FakeChannel } from './fake-channel.ts';

const T0 = 1_767_225_600_000;

function rig() {
  const store = new PbxStore(new VirtualClock({ start: T0 }), defaultState(T0));
  const channels: FakeChannel[] = [];
  const forwarder = new AttentionForwarder(store, {
    channelFactory: () => {
      channels.push(new FakeChannel());
      return channels.at(-1)!;
    },
  });
  const dispatch = createControlDispatcher(
    serveOperations(ATTENTION_OPERATIONS, attentionEffects(forwarder, store)),
  );
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await dispatch({
      method,
      url,
      body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
    });
    return { status: res.status, body: res.body === undefined ? undefined : JSON.parse(res.body) };
  };
  return { store, forwarder, channels, call };
}

test('POST /events/attention raises an event; bad events are refused with 400 naming the field', async () => {
  const { call, forwarder } = rig();
  const ok = await call('POST', '/events/attention', {
    module: 'Backup',
    subject: 'voll',
    severity: 'ERROR',
    at: T0 - 5,
  });
  assert.deepEqual(ok, { status: 200, body: { outcome: 'buffered' } });
  for (const [body, field] of [
    [{ subject: 's', severity: 'ERROR' }, 'module'],
    [{ module: '', subject: 's', severity: 'ERROR' }, 'module'],
    [{ module: 'M', severity: 'ERROR' }, 'subject'],
    [{ module: 'M', subject: 's', severity: 'LOUD' }, 'severity'],
    [{ module: 'M', subject: 's', severity: 'INFO', at: 'now' }, 'at'],
    [{ module: 'M', subject: 's', severity: 'INFO', description: 7 }, 'description'],
    [[1], 'object'],
  ] as const) {
    const res = await call('POST', '/events/attention', body);
    assert.equal(res.status, 400);
    assert.match(res.body.message, new RegExp(field));
  }
  assert.equal(forwarder.stats().raised, 1);
});

test('EVENT-UNSPEC-PARTNER-RELEASE: PUT /events/partner switches forwarding', async () => {
  const { call, store } = rig();
  assert.equal((await call('PUT', '/events/partner', { released: false })).status, 204);
  assert.equal(store.read().maintenance.partnerReleased, false);
  assert.deepEqual(
    (await call('POST', '/events/attention', { module: 'M', subject: 's', severity: 'INFO' })).body,
    { outcome: 'not-released' },
  );
  assert.equal((await call('PUT', '/events/partner', { released: 'yes' })).status, 400);
});

test('PUT /events/controller configures the link; cut, restore, status and wait-delivered work; the key never shows', async () => {
  const { call, channels } = rig();
  assert.equal((await call('GET', '/events/forwarder')).body.link, 'disabled');
  assert.equal(
    (await call('PUT', '/events/controller', { ingest: 'http://x', siteId: 's', key: 'k' })).status,
    400,
  );
  assert.equal(
    (await call('PUT', '/events/controller', { ingest: 'tcp://127.0.0.1:9', siteId: 's', key: 'secret-key' }))
      .status,
    204,
  );
  assert.equal(channels.length, 1);
  const status = await call('GET', '/events/forwarder');
  assert.equal(status.body.siteId, 's');
  assert.ok(!JSON.stringify(status.body).includes('secret-key'));
  await call('POST', '/events/attention', { module: 'M', subject: 's', severity: 'INFO' });
  assert.equal((await call('POST', '/events/wait-delivered', { timeoutMs: 20 })).status, 504);
  channels[0]!.up();
  channels[0]!.deliver();
  const delivered = await call('POST', '/events/wait-delivered', { timeoutMs: 1000 });
  assert.equal(delivered.status, 200);
  assert.equal(delivered.body.stats.delivered, 1);
  assert.equal((await call('POST', '/events/link/cut')).status, 204);
  assert.equal(channels[0]!.state, 'cut');
  assert.equal((await call('POST', '/events/link/restore')).status, 204);
  assert.equal(channels[0]!.state, 'down');
  assert.equal((await call('PUT', '/events/controller', null)).status, 204);
  assert.equal((await call('GET', '/events/forwarder')).body.link, 'disabled');
});
