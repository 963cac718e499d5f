import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoFixture, startDemoFleet } from '../../../simulators/fleet/demo-fleet.ts';
import { defaultFixture } from '../../../simulators/fleet-controller/index.ts';

test('the demo fixture lists a PBX with its own key for each fleet site, demo sites beyond the fixture owned by Nordlicht', () => {
  const fixture = demoFixture(defaultFixture(), 6);
  assert.deepEqual(
    fixture.pbxs?.map((p) => p.siteId),
    ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen', 'site-demo-5', 'site-demo-6'],
  );
  assert.equal(new Set(fixture.pbxs?.map((p) => p.key)).size, 6, 'one key per PBX');
  assert.ok(fixture.sites.some((s) => s.id === 'site-demo-6'));
  assert.ok(fixture.rights.some((r) => r.siteId === 'site-demo-6' && r.partnerId === 'p-nordlicht'));
  assert.deepEqual(
    demoFixture(defaultFixture(), 2).pbxs?.map((p) => p.siteId),
    ['site-hamburg', 'site-kiel'],
  );
});

test("the fleet's PBXs stay registered across a controller reset and their links come back by themselves", async (t) => {
  const fleet = await startDemoFleet({ host: '127.0.0.1', clock: 'frozen', pbxCount: 5 });
  t.after(() => fleet.close());
  const { start } = await import('../../../simulators/pbx/index.ts');
  const primary = await start({
    host: '127.0.0.1',
    clock: { mode: 'frozen' },
    monitoringPort: 0,
    controller: fleet.registrations[0]!,
  });
  t.after(() => primary.close());
  await fleet.startPeers({ host: '127.0.0.1', clock: { mode: 'frozen' }, monitoringPort: 0 });
  const sites = fleet.registrations.map((r) => r.siteId);
  assert.deepEqual(sites, ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen', 'site-demo-5']);

  const allConnected = async () => {
    for (let i = 0; i < 500; i++) {
      const links = await Promise.all(sites.map((s) => fleet.controller.control.linkStatus({ siteId: s })));
      if (links.every((l) => l.registered && l.connected > 0)) return links;
      await sleep(10);
    }
    return Promise.all(sites.map((s) => fleet.controller.control.linkStatus({ siteId: s })));
  };
  for (const link of await allConnected()) assert.equal(link.connected, 1, `${link.siteId} before the reset`);
  await fleet.controller.control.reset();
  for (const link of await allConnected()) {
    assert.equal(link.registered, true, `${link.siteId} registered after the reset`);
    assert.equal(link.connected, 1, `${link.siteId} connected again after the reset`);
  }
});
