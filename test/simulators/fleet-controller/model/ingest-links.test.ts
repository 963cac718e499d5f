import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fleetEffects } from '../../../../simulators/fleet-controller/control/fleet-effects.ts';
import { evaluateFindings } from '../../../../simulators/fleet-controller/model/findings.ts';
import { defaultFixture } from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { asInventory, parseLine } from '../../../../simulators/shared/wire/ingest-protocol.ts';
import type { PbxInventory } from '../../../../simulators/shared/wire/pbx-inventory.ts';
import { fleetCore, T0 } from '../fleet-test-kit.ts';

test('EVENT-REPEAT-MERGED at fleet scale: a controller of 12,000 PBXs remembers the stream position of every one of them', async () => {
  const count = 12_000;
  const base = defaultFixture();
  const sites = Array.from({ length: count - base.sites.length }, (_, i) => ({
    id: `site-demo-${base.sites.length + i + 1}`,
    displayName: `Demo-Standort ${base.sites.length + i + 1}`,
  }));
  const { state } = await fleetCore({
    ...base,
    sites: [...base.sites, ...sites],
    pbxs: [...base.sites, ...sites].map((site) => ({ siteId: site.id, key: `key-${site.id}` })),
  });
  const stream = (n: number) => `site-demo-${n}\u0000stream-${n}`;
  for (let n = 5; n <= count; n++) assert.equal(state.ingest.acceptSequence(stream(n), 1), true);
  // The first PBX reconnects and re-sends its event: the controller still knows it had it.
  assert.equal(state.ingest.lastSequence(stream(5)), 1, 'the oldest stream is not forgotten');
  assert.equal(state.ingest.acceptSequence(stream(5), 1), false, 'a re-sent event counts once');
});

test('FLEET-FINDINGS-SELF-CLEARING: an inventory kept from a line or a control-plane body shares nothing with the object it was read from', async (t) => {
  const fixture = defaultFixture();
  const { state } = await fleetCore(fixture);
  const siteId = fixture.sites[0]!.id;
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  const control = fleetEffects({
    state,
    clock,
    fixture,
    ingestUrl: () => '',
  });
  const wire = {
    at: T0,
    pbxVersion: '4.2',
    updateKind: 'none',
    sipProviders: [{ uri: 'sip:trunk@example.net', registered: true }],
    backups: [{ target: 'nas', lastRun: { time: T0, result: 'backup.successful' }, lastSuccessAt: T0 }],
    modules: [{ name: 'Backup', id: 'm-1', worstStatus: 0 }],
  };
  const findings = () =>
    evaluateFindings({ reachable: null, inventory: state.ingest.inventories.get(siteId) ?? null });
  // Over the ingest link: the session keeps what `asInventory` made of the parsed line.
  const line = parseLine(JSON.stringify({ type: 'inventory', inventory: wire }))!;
  state.ingest.setInventory(siteId, asInventory(line['inventory'])!);
  assert.deepEqual(findings(), []);
  const parsed = line['inventory'] as typeof wire;
  parsed.sipProviders[0]!.registered = false;
  parsed.modules[0]!.worstStatus = 2;
  parsed.backups[0]!.lastRun.result = 'backup.failed';
  assert.deepEqual(findings(), [], 'the parsed line, changed afterwards, is not what is kept');
  // Through the control plane: the body given is not kept either.
  const body = structuredClone(wire);
  await control.setInventory({ siteId, inventory: body as PbxInventory });
  body.updateKind = 'major';
  body.sipProviders[0]!.registered = false;
  assert.deepEqual(findings(), [], 'the body, changed afterwards, is not what is kept');
  assert.deepEqual(state.ingest.inventories.get(siteId), wire);
});
