import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start as startController } from '../../../../simulators/fleet-controller/index.ts';
import { attentionEffects } from '../../../../simulators/pbx/events/attention-effects.ts';
import { AttentionForwarder } from '../../../../simulators/pbx/events/attention-forwarder.ts';
import { ATTENTION_OPERATIONS } from '../../../../simulators/pbx/events/attention-operations.ts';
import { start as startPbx } from '../../../../simulators/pbx/index.ts';
import { partsOf } from '../../../../simulators/pbx/pbx-parts.ts';
import { startControlPlane } from '../../../../simulators/shared/control/start-control-plane.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { ANNA, basic, FAST_SCRYPT } from '../../fleet-controller/fleet-test-kit.ts';

const T0 = 1_767_225_600_000;

/** The wiring docs/fleet-controller.md asks of the PBX composition root, done from outside. */
test('a started PBX with a forwarder and the events routes on its control plane feeds a started controller', async (t) => {
  const fleet = await startController({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const pbx = await startPbx({ monitoringPort: 0, clock: { start: T0 } });
  t.after(() => pbx.close());
  const { store } = partsOf(pbx);
  const reg = await fleet.control.registerPbx({ siteId: 'site-hamburg' });
  const forwarder = new AttentionForwarder(store, {
    controller: { ingest: reg.ingest, siteId: 'site-hamburg', key: reg.key },
  });
  t.after(() => forwarder.close());
  const control = await startControlPlane(ATTENTION_OPERATIONS, attentionEffects(forwarder, store), {
    host: '127.0.0.1',
    port: 0,
  });
  t.after(() => closeServer(control.server));
  const post = (path: string, body?: unknown) =>
    fetch(`${control.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const raised = await post('/events/attention', {
    module: 'Monitoring',
    subject: 'Dienst gestoppt',
    severity: 'CRITICAL',
  });
  assert.equal(raised.status, 200);
  assert.ok(['sent', 'buffered'].includes(((await raised.json()) as { outcome: string }).outcome));
  const waited = await post('/events/wait-delivered', { timeoutMs: 5000 });
  assert.equal(waited.status, 200);
  await waited.arrayBuffer();
  const sites = (await (
    await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: basic(ANNA) } })
  ).json()) as {
    id: string;
    attentionEvents: { subject: string; severity: string }[];
  }[];
  const hamburg = sites.find((s) => s.id === 'site-hamburg')!;
  assert.deepEqual(
    hamburg.attentionEvents.map((e) => [e.subject, e.severity]),
    [['Dienst gestoppt', 'CRITICAL']],
  );
  // the PBX control plane's reset starts the forwarder afresh
  await pbx.control.reset();
  assert.equal(forwarder.stats().raised, 0);
});
