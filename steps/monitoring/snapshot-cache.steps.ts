/** One shared snapshot and its cache lifetime (snapshot-cache.feature). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxControl } from '../../simulators/pbx/index.ts';
import { isStruct } from '../../src/clients/xmlrpc-call.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { formatDisagreements } from '../support/format-agreement.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { CHANGED_ACCOUNTS_TOTAL } from '../support/shared-memory-keys.ts';
import { asNumber, jsonField } from '../support/snapshot-values.ts';
import type { PbxWorld } from '../support/world.ts';

const ALL_FORMATS = memoryKey<[string, string, string]>('allFormats');

const DEFAULT_LIFETIME_MS = 30_000;

async function fetchAllFormats(world: PbxWorld, evidence = true): Promise<[string, string, string]> {
  const texts: string[] = [];
  for (const path of ['/checkmk', '/xml', '/json']) {
    const reply = await world.httpRequest('GET', path, { evidence });
    texts.push(reply.body.toString('utf8'));
  }
  return texts as [string, string, string];
}

When(
  'a monitoring host fetches the agent text, the XML snapshot and the JSON snapshot within one cache lifetime',
  async function (this: PbxWorld) {
    this.memory.set(ALL_FORMATS, await fetchAllFormats(this));
  },
);

Then(
  'the three formats agree on account counts, maximum channels and database sizes',
  function (this: PbxWorld) {
    const [agent, xml, json] = this.memory.require(ALL_FORMATS);
    assert.deepEqual(formatDisagreements(agent, xml, json), []);
  },
);

Then(
  'for generated account counts, maximum channels and database sizes the three formats of one snapshot agree \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set account counts and sizes'));
    const count = fc.integer({ min: 0, max: 100_000 });
    const size = fc.integer({ min: 0, max: 2 ** 45 });
    await assertLiveProperty(
      this,
      'formats of one snapshot agree',
      fc.asyncProperty(
        fc.tuple(count, count, count, count, count, count),
        fc.integer({ min: 1, max: 5000 }),
        fc.tuple(size, size),
        async ([total, admin, active, available, ringing, unavailable], max, [databaseSize, cdrSize]) => {
          await control.patchState({
            accounts: { total, admin, active, available, ringing, unavailable },
            channels: { max },
            database: { databaseSize, cdrSize },
          });
          await control.invalidateSnapshot();
          const [agent, xml, json] = await fetchAllFormats(this, false);
          assert.deepEqual(formatDisagreements(agent, xml, json), []);
        },
      ),
      runs,
    );
    return undefined;
  },
);

Then('the XML-RPC data is the agent text the data endpoint delivered', function (this: PbxWorld) {
  const fromEndpoint = this.latest.get('agent text');
  assert.ok(fromEndpoint !== undefined, 'the data endpoint delivered no agent text');
  const outcome = this.xmlrpc?.outcome;
  assert.ok(
    outcome?.kind === 'value' && isStruct(outcome.value),
    `XML-RPC answered ${JSON.stringify(outcome)}`,
  );
  assert.equal(
    outcome.value['data'],
    fromEndpoint,
    'GetMonitoringData and the data endpoint delivered different agent text',
  );
});

function accountsTotal(body: Buffer): number | undefined {
  return asNumber(jsonField(JSON.parse(body.toString('utf8')), 'accountsTotal'));
}

Then('it receives the same snapshot as the first time', function (this: PbxWorld) {
  const first = this.replies[0];
  const last = this.reply;
  assert.ok(first && last && first !== last, 'two replies are needed');
  assert.ok(
    last.body.equals(first.body),
    'the snapshot differs from the first one: the cache did not hold it',
  );
});

Then('it receives a fresh snapshot that shows the change', function (this: PbxWorld) {
  const last = this.reply;
  assert.ok(last, 'no reply');
  const expected = this.memory.get(CHANGED_ACCOUNTS_TOTAL);
  assert.equal(accountsTotal(last.body), expected, 'the snapshot does not show the change: it is not fresh');
});

/** Slack left below a lifetime when the target's clock keeps running between control-plane calls. */
const RUNNING_CLOCK_SLACK_MS = 3_000;

/**
 * Whether the target's clock moves by itself (`simulate --clock running`): two readings of
 * `now()` a few real milliseconds apart differ. A frozen clock moves only when advanced.
 */
async function clockRuns(control: PbxControl): Promise<boolean> {
  const before = (await control.now()).now;
  await new Promise((resolve) => setTimeout(resolve, 20));
  return (await control.now()).now > before;
}

/**
 * The longest `within` to generate for `lifetime`: the last millisecond on a frozen clock; a few
 * seconds less on a running one, for the time the exchanges themselves take (at most a quarter
 * of the lifetime, so short lifetimes keep room to generate in).
 */
function lastWithin(lifetime: number, running: boolean): number {
  return lifetime - 1 - (running ? Math.min(RUNNING_CLOCK_SLACK_MS, Math.floor(lifetime / 4)) : 0);
}

/**
 * One cache cycle: a first request creates the snapshot, the state changes, a request `within` ms
 * later must get the same bytes, a request `after` ms after creation must show the change. The
 * snapshot's age at each request is bracketed by the target's own `now()` read around the
 * requests, so a running clock is judged by the time that really passed on it: a request whose
 * oldest possible age is still inside the lifetime must be served from the cache, one whose
 * youngest possible age is past the lifetime must be fresh. A run whose bracket straddles the
 * lifetime proves nothing either way and is discarded (`fc.pre`).
 */
async function cacheCycle(
  world: PbxWorld,
  control: PbxControl,
  [lifetime, within, after, bump]: [number, number, number, number],
  label: string,
) {
  await control.invalidateSnapshot();
  const beforeFirst = (await control.now()).now;
  const first = await world.httpRequest('GET', '/json', { evidence: false });
  const afterFirst = (await control.now()).now;
  const total = (accountsTotal(first.body) ?? 0) + bump;
  await control.patchState({ accounts: { total } });
  await control.advanceClock({ ms: within });
  const cached = await world.httpRequest('GET', '/json', { evidence: false });
  const afterCached = (await control.now()).now;
  const oldestCached = afterCached - beforeFirst;
  fc.pre(oldestCached < lifetime);
  assert.ok(
    cached.body.equals(first.body),
    `${label}: ${within} ms after creation (at most ${oldestCached} ms on the target's clock) the snapshot was not the cached one`,
  );
  await control.advanceClock({ ms: after - within });
  const beforeFresh = (await control.now()).now;
  const fresh = await world.httpRequest('GET', '/json', { evidence: false });
  const youngestFresh = beforeFresh - afterFirst;
  fc.pre(youngestFresh > lifetime);
  assert.equal(
    accountsTotal(fresh.body),
    total,
    `${label}: ${after} ms after creation (at least ${youngestFresh} ms on the target's clock) the snapshot was not fresh`,
  );
}

Then(
  'for generated waiting times the snapshot is cached for 30 seconds from its creation \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('advance the PBX clock'));
    const running = await clockRuns(control);
    await assertLiveProperty(
      this,
      'default cache lifetime',
      fc.asyncProperty(
        fc.integer({ min: 0, max: lastWithin(DEFAULT_LIFETIME_MS, running) }),
        fc.integer({ min: DEFAULT_LIFETIME_MS + 1, max: 4 * DEFAULT_LIFETIME_MS }),
        fc.integer({ min: 1, max: 1000 }),
        (within, after, bump) =>
          cacheCycle(this, control, [DEFAULT_LIFETIME_MS, within, after, bump], 'lifetime 30000 ms'),
      ),
      runs,
    );
    return undefined;
  },
);

Then(
  'for generated cache lifetimes and waiting times the snapshot is cached for the configured lifetime \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('configure the cache lifetime'));
    const running = await clockRuns(control);
    const cycle = fc
      .integer({ min: 1_000, max: 300_000 })
      .chain((lifetime) =>
        fc.tuple(
          fc.constant(lifetime),
          fc.integer({ min: 0, max: lastWithin(lifetime, running) }),
          fc.integer({ min: lifetime + 1, max: lifetime + 60_000 }),
          fc.integer({ min: 1, max: 1000 }),
        ),
      );
    await assertLiveProperty(
      this,
      'configured cache lifetime',
      fc.asyncProperty(cycle, async ([lifetime, within, after, bump]) => {
        await control.setCacheLifetime({ ms: lifetime });
        await cacheCycle(this, control, [lifetime, within, after, bump], `lifetime ${lifetime} ms`);
      }),
      runs,
    );
    return undefined;
  },
);
