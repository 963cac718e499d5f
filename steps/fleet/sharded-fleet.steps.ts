/**
 * A fleet in shards (features/fleet/sharded-fleet.feature, issue 29 item 16): the harness starts a
 * fleet controller alone and, when told, every shard of the fleet in this process, each shard
 * linking its PBXs over its own multiplexed TCP connection with keys derived from one fleet secret,
 * as `simulate --fleet-only` and `simulate --shard i/N` do. What is checked is the controller's
 * view: its site lists (interface B) and its control plane's link status per site.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { After, Given, Then, When } from '@cucumber/cucumber';
import { type Fleet, type FleetShard, parseAddressPool, startFleet } from '../../simulators/fleet/index.ts';
import { eventually } from '../support/eventually.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { restEvidence, restExchange } from './support/fleet-rest.ts';

interface ShardedFleet {
  controller: Fleet;
  secret: string;
  count: number;
  total: number;
  shards: FleetShard[];
}

const SHARDED_FLEET = memoryKey<ShardedFleet>('shardedFleet');
/** Fleets to close after the scenario, whatever became of it. */
const opened = new WeakMap<PbxWorld, ShardedFleet>();

/** Real time the links of a small fleet get to come up (they take milliseconds). */
const LINKED_WITHIN_MS = 15_000;

After(async function (this: PbxWorld) {
  const fleet = opened.get(this);
  if (!fleet) return;
  opened.delete(this);
  await Promise.all(fleet.shards.splice(0).map((shard) => shard.close()));
  await fleet.controller.close();
});

Given(
  'a fleet controller alone for {int} PBXs, to be run in {int} shards',
  async function (this: PbxWorld, count: number, total: number) {
    const remote = this.parameters.target;
    if (remote !== undefined)
      return this.notVerifiable(
        `target "${remote.description.name}" is not the embedded simulator: the harness runs its own controller and shards`,
      );
    const secret = randomBytes(32).toString('hex');
    const controller = await startFleet({
      part: 'controller',
      host: '127.0.0.1',
      clock: 'frozen',
      pbxCount: count,
      secret,
    });
    const fleet: ShardedFleet = { controller, secret, count, total, shards: [] };
    opened.set(this, fleet);
    this.memory.set(SHARDED_FLEET, fleet);
    return undefined;
  },
);

When('every shard of that fleet runs', async function (this: PbxWorld) {
  const fleet = this.memory.require(SHARDED_FLEET);
  // A /24 of loopback of its own, ports chosen by the system: nothing another test holds.
  const addresses = parseAddressPool(
    `127.${150 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 256)}.0/24`,
  );
  const started = await Promise.allSettled(
    Array.from({ length: fleet.total }, (_, index) =>
      startFleet({
        part: 'shard',
        shard: { index, total: fleet.total },
        pbxCount: fleet.count,
        controller: fleet.controller.urls.ingest,
        secret: fleet.secret,
        pool: { addresses, dataPort: 0, webPort: 0 },
        pbx: { clock: { mode: 'frozen' } },
        controlHost: '127.0.0.1',
        controlPort: 0,
      }),
    ),
  );
  for (const outcome of started) if (outcome.status === 'fulfilled') fleet.shards.push(outcome.value);
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) throw new Error(`a shard did not start: ${String((failed as PromiseRejectedResult).reason)}`);
});

/** The fleet's sites, in the controller's fixture order. */
function sitesOf(fleet: ShardedFleet): string[] {
  return (fleet.controller.fixture.pbxs ?? []).map((pbx) => pbx.siteId);
}

/**
 * Every site once, merged from the site lists of one account of each partner (between them they
 * see the whole fleet); each list answered 200 with an ETag (FLEET-SITES-LIST) and no site twice.
 */
async function mergedSiteLists(world: PbxWorld, fleet: ShardedFleet, evidence: boolean) {
  const accounts = new Map<string, { email: string; password: string }>();
  for (const account of fleet.controller.fixture.accounts)
    if (account.password !== null && !accounts.has(account.partnerId))
      accounts.set(account.partnerId, { email: account.email, password: account.password });
  const merged = new Map<string, { id: string; attention: string[] }>();
  for (const { email, password } of accounts.values()) {
    const res = await restExchange({
      method: 'GET',
      url: `${fleet.controller.urls.api}/api/v1/sites`,
      auth: { kind: 'basic', email, password },
      who: email,
    });
    if (evidence) world.evidence(restEvidence(res));
    assert.equal(res.status, 200, `GET /api/v1/sites as ${email} answered ${res.status}`);
    assert.ok(res.headers['etag'], `GET /api/v1/sites as ${email} answered without an ETag`);
    const list = res.json as { id: string; attention: string[] }[];
    assert.equal(new Set(list.map((site) => site.id)).size, list.length, `a site twice in ${email}'s list`);
    for (const site of list) merged.set(site.id, site);
  }
  return merged;
}

Then(
  'the site lists of that fleet show each of its {int} sites once, each with the finding {string}',
  async function (this: PbxWorld, count: number, key: string) {
    const fleet = this.memory.require(SHARDED_FLEET);
    const sites = await mergedSiteLists(this, fleet, true);
    assert.deepEqual([...sites.keys()].sort(), sitesOf(fleet).sort(), 'every site of the fleet, once');
    assert.equal(sites.size, count);
    const without = [...sites.values()].filter((site) => !site.attention.includes(key)).map((s) => s.id);
    assert.deepEqual(without, [], `sites without the finding "${key}"`);
  },
);

Then('the controller sees every site of that fleet linked exactly once', async function (this: PbxWorld) {
  const fleet = this.memory.require(SHARDED_FLEET);
  const { control } = fleet.controller;
  const links = async () => Promise.all(sitesOf(fleet).map((siteId) => control.linkStatus({ siteId })));
  let seen = await links();
  await eventually(
    async () => {
      seen = await links();
      return seen.every((link) => link.connected >= 1);
    },
    'every site linked',
    { timeoutMs: LINKED_WITHIN_MS },
  ).catch(() => undefined);
  this.evidence({
    exchange: 'control plane GET /sites/{siteId}/link, every site',
    response: JSON.stringify(seen),
  });
  assert.deepEqual(
    seen.filter((link) => !link.registered || link.connected !== 1 || link.cut).map((link) => link.siteId),
    [],
    'sites not linked exactly once',
  );
});

Then(
  'the site lists of that fleet show each of its {int} sites once, none with the finding {string}',
  async function (this: PbxWorld, count: number, key: string) {
    const fleet = this.memory.require(SHARDED_FLEET);
    let sites = await mergedSiteLists(this, fleet, false);
    await eventually(
      async () => {
        sites = await mergedSiteLists(this, fleet, false);
        return [...sites.values()].every((site) => !site.attention.includes(key));
      },
      `no site with the finding "${key}"`,
      { timeoutMs: LINKED_WITHIN_MS },
    ).catch(() => undefined);
    sites = await mergedSiteLists(this, fleet, true);
    assert.deepEqual([...sites.keys()].sort(), sitesOf(fleet).sort(), 'every site of the fleet, once');
    assert.equal(sites.size, count);
    const still = [...sites.values()].filter((site) => site.attention.includes(key)).map((s) => s.id);
    assert.deepEqual(still, [], `sites still with the finding "${key}"`);
  },
);
