import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  addressAt,
  demoFixture,
  FleetStartError,
  parseAddressPool,
  probeBind,
  startFleet,
} from '../../../simulators/fleet/index.ts';
import { defaultFixture } from '../../../simulators/fleet-controller/index.ts';
import { eventually } from '../../../steps/support/eventually.ts';
import { holdAddressPort, randomPool } from './random-pool.ts';

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
  const fleet = await startFleet({
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: 5,
    pbx: { host: '127.0.0.1', clock: { mode: 'frozen' }, monitoringPort: 0 },
  });
  t.after(() => fleet.close());
  const sites = fleet.pbxs.map((p) => p.siteId);
  assert.deepEqual(sites, ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen', 'site-demo-5']);

  const allConnected = async () => {
    for (let i = 0; i < 500; i++) {
      const links = await Promise.all(sites.map((s) => fleet.control.linkStatus({ siteId: s })));
      if (links.every((l) => l.registered && l.connected > 0)) return links;
      await sleep(10);
    }
    return Promise.all(sites.map((s) => fleet.control.linkStatus({ siteId: s })));
  };
  for (const link of await allConnected()) assert.equal(link.connected, 1, `${link.siteId} before the reset`);
  await fleet.control.reset();
  for (const link of await allConnected()) {
    assert.equal(link.registered, true, `${link.siteId} registered after the reset`);
    assert.equal(link.connected, 1, `${link.siteId} connected again after the reset`);
  }
});

test('a controller alone and a shard of its PBXs, both from startFleet, link every site with the keys derived from one secret', async (t) => {
  const picked = await randomPool(3);
  if (!picked) return t.skip('no spare loopback block on this system');
  const secret = 'b7c1e0d2a9f84e3c6d5b4a3928170f6e5d4c3b2a';
  const controller = await startFleet({
    part: 'controller',
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: 3,
    secret,
  });
  t.after(() => controller.close());
  assert.deepEqual(controller.pbxs, [], 'the controller alone starts no PBX');
  const shard = await startFleet({
    part: 'shard',
    shard: { index: 0, total: 1 },
    pbxCount: 3,
    controller: controller.urls.ingest,
    secret,
    pool: { addresses: picked.pool, dataPort: picked.port, webPort: picked.port2 },
    pbx: { clock: { mode: 'frozen' } },
    controlHost: '127.0.0.1',
    controlPort: 0,
  });
  t.after(() => shard.close());
  assert.deepEqual([shard.from, shard.to], [0, 3]);
  assert.deepEqual(shard.siteIds, ['site-hamburg', 'site-kiel', 'site-bremen']);
  for (const siteId of shard.siteIds) {
    await eventually(
      async () => (await controller.control.linkStatus({ siteId })).connected === 1,
      `${siteId} linked over the shard's connection`,
    );
    assert.equal((await controller.control.linkStatus({ siteId })).registered, true);
  }
});

test('a pool smaller than the fleet stops startFleet in its preflight, before anything listens', async () => {
  const pool = { addresses: parseAddressPool('127.0.0.1-127.0.0.3'), dataPort: 6556, webPort: 8080 };
  const started = startFleet({ host: '127.0.0.1', clock: 'frozen', pbxCount: 5, pool, pbx: {} });
  await assert.rejects(started, (error: unknown) => {
    assert.ok(error instanceof FleetStartError);
    assert.equal(error.part, 'preflight');
    assert.match(error.message, /holds 3 addresses, fewer than the 5 PBXs/);
    return true;
  });
  const shard = startFleet({
    part: 'shard',
    shard: { index: 1, total: 2 },
    pbxCount: 10,
    controller: 'tcp://127.0.0.1:9',
    secret: 'b7c1e0d2a9f84e3c6d5b4a3928170f6e5d4c3b2a',
    pool,
    pbx: {},
    controlHost: '127.0.0.1',
    controlPort: 0,
  });
  await assert.rejects(shard, (error: unknown) => {
    assert.ok(error instanceof FleetStartError);
    assert.equal(error.part, 'preflight');
    assert.match(error.message, /holds 3 addresses, fewer than the 10 this shard reaches/);
    return true;
  });
});

test('a PBX that cannot listen fails startFleet as part pbx with its own error, and the controller is closed again', async (t) => {
  const picked = await randomPool(3);
  if (!picked) return t.skip('no spare loopback block on this system');
  // PBX 2's address: the preflight probes the first and the last address of the fleet, not this one.
  const held = await holdAddressPort(addressAt(picked.pool, 1), picked.port);
  t.after(() => held.close());
  const apiPort = await freePort();
  const started = startFleet({
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: 3,
    apiPort,
    pool: { addresses: picked.pool, dataPort: picked.port, webPort: picked.port2 },
    pbx: { clock: { mode: 'frozen' } },
  });
  await assert.rejects(started, (error: unknown) => {
    assert.ok(error instanceof FleetStartError);
    assert.equal(error.part, 'pbx');
    assert.match(error.message, /the PBX of site-kiel did not start/);
    assert.equal((error.cause as NodeJS.ErrnoException).code, 'EADDRINUSE');
    return true;
  });
  assert.equal(await probeBind('127.0.0.1', apiPort), null, "the controller's REST listener is closed again");
});

/** A port the kernel just handed out and took back. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test('a controller that cannot start fails startFleet as part controller, with the cause in its message', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'start-fleet-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const notADir = join(dir, 'file');
  await writeFile(notADir, 'not a data directory');
  const started = startFleet({ host: '127.0.0.1', clock: 'frozen', pbxCount: 1, dataDir: notADir, pbx: {} });
  await assert.rejects(started, (error: unknown) => {
    assert.ok(error instanceof FleetStartError);
    assert.equal(error.part, 'controller');
    assert.equal(error.message, 'the fleet controller did not start');
    assert.ok(error.cause instanceof Error);
    return true;
  });
});
