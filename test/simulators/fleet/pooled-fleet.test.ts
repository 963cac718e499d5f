import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { test } from 'node:test';
import { request } from 'undici';
import { addressAt, type Fleet, startFleet } from '../../../simulators/fleet/index.ts';
import { ingestConnections, linkedSites } from '../../../simulators/fleet-controller/index.ts';
import { forwarderStatus, httpPbxControl, type PbxControl } from '../../../simulators/pbx/index.ts';
import { eventually } from '../../../steps/support/eventually.ts';
import { randomPool } from './random-pool.ts';

/** 2026-01-05 00:00 UTC: both runs of the activity test start their PBX clocks here. */
const FIXED_START = Date.UTC(2026, 0, 5);

type Picked = NonNullable<Awaited<ReturnType<typeof randomPool>>>;

async function startPooled(
  picked: Picked,
  count: number,
  activity?: { seed: string; eventsPerHour: number; stormsPerDay: number; stormSize: number },
) {
  // Every PBX's clock starts at the same moment, so two runs of one seed are alike.
  return startFleet({
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: count,
    pool: { addresses: picked.pool, dataPort: picked.port, webPort: picked.port2 },
    ...(activity ? { activity } : {}),
    pbx: { clock: { mode: 'frozen', start: FIXED_START } },
  });
}

function readDataEndpoint(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, localAddress: '127.0.0.1' });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

async function siteControl(fleet: Fleet, siteId: string): Promise<PbxControl> {
  return httpPbxControl(`${fleet.urls.control}/pbx/${encodeURIComponent(siteId)}`);
}

test('a pooled fleet puts each PBX on its own address on the same ports, and one control plane reaches each by site id', async (t) => {
  const picked = await randomPool(6);
  if (!picked) return t.skip('no spare loopback block on this system');
  const fleet = await startPooled(picked, 6);
  t.after(() => fleet.close());
  const sites = fleet.pbxs.map((p) => p.siteId);
  for (const [i, siteId] of sites.entries()) {
    const address = addressAt(picked.pool, i);
    const text = await readDataEndpoint(address, picked.port);
    assert.match(text, /^<<<monitor_agent>>>/, `${siteId} answers on ${address}:${picked.port}`);
    const control = await siteControl(fleet, siteId);
    await control.patchState({ appliance: { hostname: `pbx-${i}` } });
    assert.equal((await control.getState()).appliance.hostname, `pbx-${i}`);
    const web = await request(`http://${address}:${picked.port2}/xml-rpc`, { method: 'GET' });
    await web.body.dump();
    assert.ok(
      web.statusCode >= 400 && web.statusCode < 500,
      `${siteId}'s web server answers GET /xml-rpc with a client error`,
    );
  }
  // The change went to one PBX only: the state is per site.
  assert.equal((await (await siteControl(fleet, sites[2]!)).getState()).appliance.hostname, 'pbx-2');
  const list = await request(`${fleet.urls.control}/pbx`);
  assert.deepEqual(((await list.body.json()) as { siteIds: string[] }).siteIds.sort(), [...sites].sort());
  const unknown = await request(`${fleet.urls.control}/pbx/site-nowhere/state`);
  assert.equal(unknown.statusCode, 404);
  assert.equal(((await unknown.body.json()) as { error: string }).error, 'not_found');
  // The controller's own control plane still answers beside the PBXs'.
  const own = await request(`${fleet.urls.control}/stats`);
  assert.equal(own.statusCode, 200);
  await own.body.dump();
});

/** Runs a 3-PBX fleet with field activity for 26 virtual hours; returns what the controller and PBXs ended with. */
async function fieldRun(picked: Picked, seed: string) {
  const fleet = await startPooled(picked, 3, { seed, eventsPerHour: 6, stormsPerDay: 4, stormSize: 60 });
  try {
    const sites = fleet.pbxs.map((p) => p.siteId);
    const controls = await Promise.all(sites.map((siteId) => siteControl(fleet, siteId)));
    for (let hour = 0; hour < 26; hour++) {
      for (const control of controls) await control.advanceClock({ ms: 3_600_000 });
      for (const siteId of sites) {
        const waited = await request(`${fleet.urls.control}/pbx/${siteId}/events/wait-delivered`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ timeoutMs: 20_000 }),
        });
        assert.equal(waited.statusCode, 200, `${siteId} delivered its events`);
        await waited.body.dump();
      }
    }
    const perSite = [];
    for (const [i, siteId] of sites.entries()) {
      const state = await controls[i]!.getState();
      const activity = (await (
        await request(`${fleet.urls.control}/pbx/${siteId}/activity`)
      ).body.json()) as Record<string, unknown>;
      const items = (await fleet.control.items({ siteId })).map((item) => ({
        module: item.module,
        subject: item.subject,
        severity: item.severity,
        occurrences: item.occurrences,
      }));
      perSite.push({
        siteId,
        activity,
        onlinePhones: state.sip.onlinePhones,
        linkedCalls: state.traffic.linkedCalls,
        memAvailable: state.os.memAvailableBytes,
        backups: state.backups.map((b) => b.runs.map((r) => `${r.time}:${r.result}`)),
        items: items.sort((a, b) => `${a.module}${a.subject}`.localeCompare(`${b.module}${b.subject}`)),
      });
    }
    return { perSite, stats: await fleet.control.stats() };
  } finally {
    await fleet.close();
  }
}

test('--activity field is deterministic from its seed: two runs with one seed end alike, another seed differs, and the events arrive at the controller', async (t) => {
  const picked = await randomPool(3);
  if (!picked) return t.skip('no spare loopback block on this system');
  const first = await fieldRun(picked, 'seed-a');
  const second = await fieldRun(picked, 'seed-a');
  assert.deepEqual(second, first);
  const raised = first.perSite.reduce((n, site) => n + Number(site.activity['eventsRaised']), 0);
  assert.ok(raised > 0, 'the activity raised events');
  assert.ok(first.stats.accepted > 0, 'the controller accepted events over the ingest links');
  assert.ok(
    first.perSite.every((site) => Number(site.activity['ticks']) === 26 * 60),
    'one step per virtual minute',
  );
  // 00:00 to 02:00 the next day holds two nightly runs (02:00) per backup target.
  assert.ok(
    first.perSite.every((site) => Number(site.activity['backupRuns']) === 2 * site.backups.length),
    'one nightly run per backup target',
  );
  assert.ok(first.perSite.some((site) => site.items.length > 0));
  const other = await fieldRun(picked, 'seed-b');
  assert.notDeepEqual(other.perSite, first.perSite);
});

test('a frozen clock stops field activity: nothing changes until the clock moves', async (t) => {
  const picked = await randomPool(1);
  if (!picked) return t.skip('no spare loopback block on this system');
  const fleet = await startPooled(picked, 1, {
    seed: 'still',
    eventsPerHour: 600,
    stormsPerDay: 0,
    stormSize: 0,
  });
  t.after(() => fleet.close());
  const control = await siteControl(fleet, fleet.pbxs[0]!.siteId);
  const before = await control.getState();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const status = async () =>
    (await (await request(`${fleet.urls.control}/pbx/${fleet.pbxs[0]!.siteId}/activity`)).body.json()) as {
      ticks: number;
      eventsRaised: number;
      on: boolean;
    };
  assert.deepEqual(await control.getState(), before);
  assert.equal((await status()).ticks, 0);
  await control.advanceClock({ ms: 60_000 });
  const after = await status();
  assert.equal(after.ticks, 1);
  assert.equal(after.on, true);
  await control.reset();
  assert.equal((await status()).on, false, 'a reset stops the activity');
});

/** The listeners of a fleet controller: REST and MCP, ingest, control plane. */
const CONTROLLER_LISTENERS = 3;

/** Open descriptors of this process (Linux), or `undefined` where /proc is not there. */
function openDescriptors(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

test('a pooled fleet holds two descriptors per PBX, its two listeners: each ingest link is an in-process pipe, and every link is up', async (t) => {
  const count = 40;
  const picked = await randomPool(count);
  if (!picked || openDescriptors() === undefined) return t.skip('no spare loopback block or no /proc here');
  const before = openDescriptors()!;
  const fleet = await startFleet({
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: count,
    pool: { addresses: picked.pool, dataPort: picked.port, webPort: picked.port2 },
    pbx: { clock: { mode: 'frozen' } },
  });
  t.after(() => fleet.close());
  await eventually(
    () => fleet.pbxs.every(({ pbx }) => forwarderStatus(pbx).link === 'up'),
    'every ingest link up',
  );
  assert.equal(linkedSites(fleet.controller), count);
  // The controller's three listeners (REST and MCP, ingest, control plane), then two per PBX.
  const held = openDescriptors()! - before - CONTROLLER_LISTENERS;
  // Exactly two per PBX, give or take a descriptor the runtime opens or closes meanwhile.
  assert.ok(Math.abs(held - 2 * count) <= 3, `${count} PBXs hold ${held} descriptors, not ${2 * count}`);
  const sockets = await ingestConnections(fleet.controller);
  assert.equal(sockets, 0, 'no PBX links over TCP');
});
