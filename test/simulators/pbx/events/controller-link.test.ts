import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  connectInProcess,
  type FleetHandle,
  ingestConnections,
  start,
} from '../../../../simulators/fleet-controller/index.ts';
import { AttentionForwarder } from '../../../../simulators/pbx/events/attention-forwarder.ts';
import { THROTTLE_INTERVAL_MS } from '../../../../simulators/pbx/events/forwarding-limiter.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { eventually } from '../../../../steps/support/eventually.ts';
import { ANNA, basic, FAST_SCRYPT } from '../../fleet-controller/fleet-test-kit.ts';

const CONTROLLER_T0 = 1_767_225_600_000;
/** The PBX clock runs one hour ahead of the controller's, so the tests can tell them apart. */
const PBX_T0 = CONTROLLER_T0 + 3_600_000;

/**
 * Every test runs over both transports of the link: TCP, and the in-process pipe a pooled fleet's
 * PBXs use to a controller in the same process (issue 22); the lines and the sessions are the same.
 */
const TRANSPORTS = ['tcp', 'in-process'] as const;
type Transport = (typeof TRANSPORTS)[number];

/** `dial` for the in-process transport. */
function dialOf(fleet: FleetHandle, transport: Transport) {
  return transport === 'tcp' ? {} : { dial: () => connectInProcess(fleet) };
}

async function setup(t: { after(fn: () => Promise<void> | void): void }, transport: Transport) {
  const siteId = 'site-kiel';
  const fleet: FleetHandle = await start({ scryptCost: FAST_SCRYPT, clock: { start: CONTROLLER_T0 } });
  t.after(() => fleet.close());
  const registration = await fleet.control.registerPbx({ siteId });
  const clock = new VirtualClock({ start: PBX_T0 });
  const store = new PbxStore(clock, defaultState(PBX_T0));
  const forwarder = new AttentionForwarder(store, {
    controller: { ingest: registration.ingest, siteId, key: registration.key, ...dialOf(fleet, transport) },
  });
  t.after(() => forwarder.close());
  await eventually(() => forwarder.status().link === 'up', 'the link');
  return { fleet, registration, clock, store, forwarder, siteId };
}

async function kielView(fleet: FleetHandle) {
  const res = await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: basic(ANNA) } });
  const sites = (await res.json()) as {
    id: string;
    attention: string[];
    attentionEvents: Record<string, unknown>[];
  }[];
  return sites.find((s) => s.id === 'site-kiel')!;
}

for (const transport of TRANSPORTS) {
  test(`EVENT-FORWARD-WITH-PARTNER, EVENT-FIRST-REPORT-OPENS, FLEET-ITEM-FIRSTAT: a raised event reaches the controller over ${transport} with the PBX clock time (${transport})`, async (t) => {
    const { fleet, forwarder, clock } = await setup(t, transport);
    assert.deepEqual(await fleet.control.linkStatus({ siteId: 'site-kiel' }), {
      siteId: 'site-kiel',
      registered: true,
      connected: 1,
      cut: false,
    });
    const sockets = await ingestConnections(fleet);
    assert.equal(sockets, transport === 'tcp' ? 1 : 0, 'TCP connections at the ingest listener');
    clock.advance(250);
    assert.equal(
      forwarder.raise({ module: 'Backup', moduleId: 'mod-b', subject: 'NAS voll', severity: 'CRITICAL' }),
      'sent',
    );
    await forwarder.whenDelivered();
    const kiel = await kielView(fleet);
    assert.deepEqual(kiel.attention, ['events']);
    assert.equal(kiel.attentionEvents[0]!['firstAt'], PBX_T0 + 250);
    assert.equal(kiel.attentionEvents[0]!['occurrences'], 1);
    assert.equal(kiel.attentionEvents[0]!['moduleId'], 'mod-b');
  });

  test(`EVENT-THROTTLE-BURST, EVENT-THROTTLE-SUPPRESSED, EVENT-REPEAT-MERGED: 8 reports give 5 occurrences, and after 2 minutes a 6th with suppressed 3 (${transport})`, async (t) => {
    const { fleet, forwarder, clock } = await setup(t, transport);
    for (let i = 0; i < 8; i++) forwarder.raise({ module: 'Backup', subject: 'NAS voll', severity: 'ERROR' });
    await forwarder.whenDelivered();
    let item = (await kielView(fleet)).attentionEvents[0]!;
    assert.equal(item['occurrences'], 5);
    assert.equal(item['suppressed'], 0);
    clock.advance(THROTTLE_INTERVAL_MS);
    forwarder.raise({ module: 'Backup', subject: 'NAS voll', severity: 'ERROR' });
    await forwarder.whenDelivered();
    item = (await kielView(fleet)).attentionEvents[0]!;
    assert.equal(item['occurrences'], 6);
    assert.equal(item['suppressed'], 3);
    assert.equal(item['lastAt'], PBX_T0 + THROTTLE_INTERVAL_MS);
  });

  test(`EVENT-BUFFER-OFFLINE, EVENT-BUFFER-LIMIT: while the controller has the link cut, 25 messages leave 20 that arrive after restore (${transport})`, async (t) => {
    const { fleet, forwarder } = await setup(t, transport);
    await fleet.control.cutLink({ siteId: 'site-kiel' });
    await eventually(() => forwarder.status().link !== 'up', 'the cut');
    assert.deepEqual((await kielView(fleet)).attention, ['offline']);
    for (let i = 0; i < 25; i++)
      assert.equal(forwarder.raise({ module: `Modul ${i}`, subject: 'x', severity: 'WARNING' }), 'buffered');
    forwarder.reconnectNow();
    await new Promise((r) => setTimeout(r, 30));
    assert.equal((await fleet.control.items({ siteId: 'site-kiel' })).length, 0, 'nothing passes a cut link');
    await fleet.control.restoreLink({ siteId: 'site-kiel' });
    forwarder.reconnectNow();
    await forwarder.whenDelivered();
    const items = await fleet.control.items({ siteId: 'site-kiel' });
    assert.deepEqual(
      items.map((i) => i.module),
      Array.from({ length: 20 }, (_, i) => `Modul ${i + 5}`),
    );
    assert.equal(forwarder.stats().dropped, 5);
    assert.ok(!(await kielView(fleet)).attention.includes('offline'));
  });

  test(`EVENT-BUFFER-OFFLINE: a PBX-side cut buffers too and restore delivers (${transport})`, async (t) => {
    const { fleet, forwarder } = await setup(t, transport);
    forwarder.cut();
    await eventually(
      async () => (await fleet.control.linkStatus({ siteId: 'site-kiel' })).connected === 0,
      'the disconnect',
    );
    assert.equal(forwarder.status().link, 'cut');
    assert.equal(forwarder.raise({ module: 'Backup', subject: 'x', severity: 'INFO' }), 'buffered');
    forwarder.restore();
    await forwarder.whenDelivered();
    assert.equal((await fleet.control.items({ siteId: 'site-kiel' })).length, 1);
  });

  test(`FLEET-FINDINGS-SELF-CLEARING: a trunk going down on the PBX shows as trunks at the controller and clears when it is back (${transport})`, async (t) => {
    const { fleet, store } = await setup(t, transport);
    await eventually(async () => (await kielView(fleet)).attention.length === 0, 'a healthy inventory');
    store.update((s) => {
      s.sipProviders[0]!.registered = false;
    });
    await eventually(async () => (await kielView(fleet)).attention.includes('trunks'), 'trunks');
    store.update((s) => {
      s.sipProviders[0]!.registered = true;
    });
    await eventually(async () => !(await kielView(fleet)).attention.includes('trunks'), 'trunks to clear');
  });

  test(`EVENT-NO-FORWARD-WITHOUT-PARTNER: with no partner released nothing reaches the controller (${transport})`, async (t) => {
    const { fleet, forwarder, store } = await setup(t, transport);
    store.update((s) => {
      s.maintenance.partnerReleased = false;
    });
    assert.equal(forwarder.raise({ module: 'Backup', subject: 'x', severity: 'INFO' }), 'not-released');
    await forwarder.whenDelivered();
    assert.equal((await fleet.control.items({ siteId: 'site-kiel' })).length, 0);
  });

  test(`a PBX with a wrong ingest key is refused, logs it without the key, and the site stays offline (${transport})`, async (t) => {
    const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: CONTROLLER_T0 } });
    t.after(() => fleet.close());
    const registration = await fleet.control.registerPbx({ siteId: 'site-kiel' });
    const clock = new VirtualClock({ start: PBX_T0 });
    const store = new PbxStore(clock, defaultState(PBX_T0));
    const forwarder = new AttentionForwarder(store, {
      controller: {
        ...registration,
        siteId: 'site-kiel',
        key: 'wrong-key-value',
        ...dialOf(fleet, transport),
      },
    });
    t.after(() => forwarder.close());
    await eventually(() => store.moduleLog().some((e) => /bad-key/.test(e.message)), 'the refusal');
    assert.ok(!JSON.stringify(store.moduleLog()).includes('wrong-key-value'));
    assert.deepEqual((await kielView(fleet)).attention, ['offline']);
    forwarder.configure({
      ingest: registration.ingest,
      siteId: 'site-kiel',
      key: registration.key,
      ...dialOf(fleet, transport),
    });
    await eventually(() => forwarder.status().link === 'up', 'the link with the right key');
    assert.deepEqual((await kielView(fleet)).attention, []);
  });
}
