import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  renderSiteList,
  SiteListCache,
} from '../../../../simulators/fleet-controller/api/site-list-cache.ts';
import { inProcessFleetControlPlane } from '../../../../simulators/fleet-controller/control/fleet-control-plane.ts';
import { fleetEffects } from '../../../../simulators/fleet-controller/control/fleet-effects.ts';
import { commitAcknowledge } from '../../../../simulators/fleet-controller/model/acknowledge.ts';
import { siteList } from '../../../../simulators/fleet-controller/model/caller-view.ts';
import {
  defaultFixture,
  type FleetFixture,
} from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import type { FleetState } from '../../../../simulators/fleet-controller/model/fleet-state.ts';
import type { PbxInventory } from '../../../../simulators/shared/wire/pbx-inventory.ts';
import { SEVERITIES } from '../../../../simulators/shared/wire/severity.ts';
import { ANNA, fleetCore, report, SAM, sitesOnly, T0, TOM, VERA } from '../fleet-test-kit.ts';

const SITES = ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen'] as const;
const PARTNERS = ['p-nordlicht', 'p-suedwind'] as const;
const CALLERS = [ANNA, TOM, VERA, SAM] as const;
const MODULES = ['Backup', 'SIP', 'Lizenz'] as const;

/** An inventory of one of four kinds, taken `ageDays` after T0 (8 days: its backup is missing). */
function inventory(variant: number, ageDays = 0): PbxInventory {
  return {
    at: T0 + ageDays * 86_400_000,
    pbxVersion: '7.1.3',
    updateKind: variant === 3 ? 'minor' : 'none',
    sipProviders: [{ uri: 'sip:provider.example', registered: variant !== 1 }],
    backups: [
      {
        target: 'nas',
        lastRun: { time: T0 - 1000, result: variant === 2 ? 'backup.failed' : 'backup.successful' },
        lastSuccessAt: T0 - 1000,
      },
    ],
    modules: [{ name: 'Voicemail', id: 'vm', worstStatus: variant === 3 ? 1 : 0 }],
  };
}

const site = fc.nat(SITES.length - 1);
const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      site,
      module: fc.nat(MODULES.length - 1),
      subject: fc.nat(2),
      severity: fc.constantFrom(...SEVERITIES),
      at: fc.nat(4),
      suppressed: fc.nat(2),
      description: fc.option(fc.constantFrom('NAS voll', 'Provider antwortet nicht'), { nil: undefined }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('ack' as const), caller: fc.nat(3), pick: fc.nat() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      caller: fc.nat(3),
      conditional: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('inventory' as const),
      site,
      variant: fc.option(fc.nat(3), { nil: null }),
      ageDays: fc.constantFrom(0, 1, 8),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('register' as const), site }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('connections' as const), site, count: fc.nat(2) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), site, restore: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      site,
      name: fc.constantFrom('Aachen', 'Zwickau', 'Ölde', 'Bremen Werk'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      partner: fc.nat(PARTNERS.length - 1),
      site,
      modules: fc.option(fc.subarray([...MODULES]), { nil: undefined }),
      revoke: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.nat(8 * 24 * 3_600_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mcp-ack' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

/** What `fleet_attention` lists, rendered afresh: every visible site with a non-empty `attention`. */
const attentionAfresh = (state: FleetState, partnerId: string) =>
  siteList(state, partnerId).filter((s) => s.attention.length > 0);

test('FLEET-UNSPEC-ETAG, FLEET-SITES-NOT-MODIFIED, MCP-ATTENTION-SITES: after any interleaving of events, acknowledgements, PBX changes and reads, the cached list and ETag, and the kept attention index, equal a fresh render', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.subarray([...SITES]),
      fc.array(operation, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 3 }),
      async (pbxSites, ops, sitesPerBlock) => {
        const fixture: FleetFixture = {
          ...defaultFixture(),
          pbxs: pbxSites.map((siteId) => ({ siteId, key: `key-${siteId}` })),
        };
        const core = await fleetCore(fixture, undefined, { sitesPerBlock });
        const { state, call, clock } = core;
        const control = inProcessFleetControlPlane(
          fleetEffects({ state, clock, fixture, ingestUrl: () => 'tcp://127.0.0.1:1' }),
        ).client;
        const lastSeen = new Map<string, string>();
        const lastBody = new Map<string, string>();
        for (const op of ops) {
          switch (op.kind) {
            case 'report':
              await control.injectEvent({
                siteId: SITES[op.site] ?? '',
                module: MODULES[op.module] ?? '',
                subject: `Meldung ${op.subject}`,
                severity: op.severity,
                at: T0 + op.at * 1000,
                suppressed: op.suppressed,
                ...(op.description === undefined ? {} : { description: op.description }),
              });
              break;
            case 'ack': {
              const caller = CALLERS[op.caller] ?? ANNA;
              const list = JSON.parse((await call('GET', '/api/v1/sites', caller)).body ?? '[]') as {
                id: string;
                attentionEvents: { id: number }[];
              }[];
              const open = list.flatMap((s) => s.attentionEvents.map((e) => ({ site: s.id, id: e.id })));
              const target = open[op.pick % Math.max(open.length, 1)];
              if (!target) break;
              const res = await call(
                'POST',
                `/api/v1/sites/${target.site}/attention/${target.id}/acknowledge`,
                caller,
              );
              assert.equal(res.status, caller === VERA ? 403 : 200);
              break;
            }
            case 'mcp-ack': {
              const items = SITES.flatMap((s) => state.attention.book.itemsOf(s));
              const item = items[op.pick % Math.max(items.length, 1)];
              const account = state.access.requireAccount(op.pick % 2 === 0 ? ANNA.id : SAM.id);
              if (item && state.access.rightOf(account.partnerId, item.siteId))
                commitAcknowledge(state, account, item, null, 'mcp');
              break;
            }
            case 'inventory':
              await control.setInventory({
                siteId: SITES[op.site] ?? '',
                inventory: op.variant === null ? null : inventory(op.variant, op.ageDays),
              });
              break;
            case 'register':
              await control.registerPbx({ siteId: SITES[op.site] ?? '' });
              break;
            case 'connections':
              // What the ingest listener reports as PBXs connect and disconnect.
              state.ingest.setConnections(SITES[op.site] ?? '', op.count);
              break;
            case 'cut': {
              const siteId = SITES[op.site] ?? '';
              if (!state.ingest.links.has(siteId)) break;
              await (op.restore ? control.restoreLink({ siteId }) : control.cutLink({ siteId }));
              break;
            }
            case 'rename':
              await control.renameSite({ siteId: SITES[op.site] ?? '', displayName: op.name });
              break;
            case 'grant': {
              const partnerId = PARTNERS[op.partner] ?? '';
              const siteId = SITES[op.site] ?? '';
              if (op.revoke) await control.revoke({ partnerId, siteId });
              else
                await control.grant({
                  partnerId,
                  siteId,
                  kind: 'managed',
                  ...(op.modules === undefined ? {} : { modules: op.modules }),
                });
              break;
            }
            case 'clock':
              await control.advanceClock({ ms: op.ms });
              break;
            case 'reset':
              await control.reset();
              break;
            case 'read': {
              const caller = CALLERS[op.caller] ?? ANNA;
              const seen = lastSeen.get(caller.email);
              const conditional = op.conditional && seen !== undefined;
              const res = await call(
                'GET',
                '/api/v1/sites',
                caller,
                conditional ? { headers: { 'if-none-match': seen } } : {},
              );
              const partner = state.access.requireAccount(caller.id).partnerId;
              const fresh = renderSiteList(state, partner, sitesPerBlock);
              assert.equal(res.headers['etag'], fresh.etag);
              if (conditional && seen === fresh.etag) {
                assert.equal(res.status, 304);
                assert.equal(res.body, undefined);
                assert.equal(res.chunks, undefined);
              } else {
                assert.equal(res.status, 200);
                // The blocks as written, one after the other, are the whole list rendered afresh.
                const written = Buffer.concat(res.chunks ?? []);
                assert.equal(written.toString('utf8'), JSON.stringify(siteList(state, partner)));
                assert.deepEqual(written, fresh.bytes);
                assert.equal(res.headers['content-length'], String(written.length));
                assert.equal(res.body, fresh.body);
                assert.deepEqual(res.bytes, fresh.bytes);
              }
              // The ETag stays exactly as long as the body does.
              const before = lastBody.get(caller.email);
              if (before !== undefined) assert.equal(seen === fresh.etag, before === fresh.body);
              lastBody.set(caller.email, fresh.body);
              lastSeen.set(caller.email, fresh.etag);
              const partnerId = state.access.requireAccount(caller.id).partnerId;
              assert.deepEqual(state.sitesNeedingAttention(partnerId), attentionAfresh(state, partnerId));
              break;
            }
          }
        }
        // Whatever happened last, every caller's cached answer is current.
        for (const caller of CALLERS) {
          const res = await call('GET', '/api/v1/sites', caller);
          const fresh = renderSiteList(
            state,
            state.access.requireAccount(caller.id).partnerId,
            sitesPerBlock,
          );
          assert.deepEqual(Buffer.concat(res.chunks ?? []), fresh.bytes);
          assert.equal(res.body, fresh.body);
          assert.equal(res.headers['etag'], fresh.etag);
        }
        for (const partnerId of PARTNERS)
          assert.deepEqual(state.sitesNeedingAttention(partnerId), attentionAfresh(state, partnerId));
      },
    ),
    { numRuns: 200 },
  );
});

test('a list is rendered once and reused until something its partner sees changes', async () => {
  const { state, clock } = await fleetCore();
  const cache = new SiteListCache(state);
  const first = cache.get('p-nordlicht');
  const sam = cache.get('p-suedwind');
  assert.equal(cache.get('p-nordlicht'), first, 'nothing changed: the same rendering');
  clock.advance(30 * 24 * 3_600_000);
  assert.equal(cache.get('p-nordlicht'), first, 'the controller clock is not part of the list');

  const outcome = state.attention.report('site-muenchen', report());
  assert.equal(cache.get('p-nordlicht'), first, 'a site Nordlicht has no right on');
  assert.notEqual(cache.get('p-suedwind'), sam);
  assert.notEqual(outcome.kind, 'capped');
  if (outcome.kind === 'capped') return;
  const samNow = cache.get('p-suedwind');
  commitAcknowledge(state, state.access.requireAccount(SAM.id), outcome.item, null, 'console');
  assert.equal(cache.get('p-nordlicht'), first, "another partner's acknowledgement");
  assert.notEqual(cache.get('p-suedwind'), samNow);

  state.attention.report('site-bremen', report());
  const changed = cache.get('p-nordlicht');
  assert.notEqual(changed, first);
  assert.notEqual(changed.etag, first.etag);
  const fresh = renderSiteList(state, 'p-nordlicht');
  assert.deepEqual([changed.body, changed.bytes, changed.etag], [fresh.body, fresh.bytes, fresh.etag]);
});

test('an inventory that changes no finding of its site leaves every site list as it was; one that does outdates them', async () => {
  const { state } = await fleetCore({
    ...defaultFixture(),
    pbxs: [{ siteId: 'site-kiel', key: 'key-kiel' }],
  });
  const partner = state.access.requireAccount(ANNA.id).partnerId;
  const cache = new SiteListCache(state);
  state.ingest.setInventory('site-kiel', inventory(0));
  const first = cache.get(partner);
  const revision = state.viewRevision(partner);
  // The PBX re-sends its inventory (every 5 minutes): a day later, the same findings.
  state.ingest.setInventory('site-kiel', inventory(0, 1));
  assert.equal(state.viewRevision(partner), revision, 'no finding changed: the list is not outdated');
  assert.equal(cache.get(partner), first, 'the kept rendering is served');
  assert.deepEqual(
    state.ingest.inventories.get('site-kiel')?.at,
    inventory(0, 1).at,
    'the inventory is kept',
  );
  // Eight days on, the backup is missing: a finding changed.
  state.ingest.setInventory('site-kiel', inventory(0, 8));
  assert.notEqual(state.viewRevision(partner), revision);
  assert.notEqual(cache.get(partner).etag, first.etag);
  assert.deepEqual(renderSiteList(state, partner).etag, cache.get(partner).etag);
});

test('issue 31 §4: a change of one site encodes again only the block that holds it; its bytes and ETag equal a whole rendering', async () => {
  const { state } = await fleetCore(sitesOnly());
  const partner = 'p-nordlicht';
  const cache = new SiteListCache(state, 1);
  const first = cache.get(partner);
  // Bremen, Hamburg, Kiel: one block each, `[` … `,` … `,` …, then `]`.
  assert.equal(first.chunks.length, 4);
  assert.deepEqual(Buffer.concat(first.chunks), Buffer.from(JSON.stringify(siteList(state, partner))));
  state.attention.report('site-kiel', report());
  const changed = cache.get(partner);
  assert.equal(changed.chunks[0], first.chunks[0], 'Bremen: the same bytes, not encoded again');
  assert.equal(changed.chunks[1], first.chunks[1], 'Hamburg: the same bytes, not encoded again');
  assert.notDeepEqual(changed.chunks[2], first.chunks[2], 'Kiel: its new finding');
  assert.notEqual(changed.etag, first.etag);
  const fresh = renderSiteList(state, partner, 1);
  assert.deepEqual([Buffer.concat(changed.chunks), changed.etag], [fresh.bytes, fresh.etag]);
  assert.deepEqual(fresh.bytes, Buffer.from(JSON.stringify(siteList(state, partner))));
  // A rename moves Kiel first: every block in the new order.
  state.access.renameSite('site-kiel', 'Aachen');
  const renamed = cache.get(partner);
  const again = renderSiteList(state, partner, 1);
  assert.deepEqual([Buffer.concat(renamed.chunks), renamed.etag], [again.bytes, again.etag]);
  assert.match(renamed.body, /^\[\{"id":"site-kiel"/);
  // The block size is part of the ETag's recipe, never of the bytes.
  assert.deepEqual(renderSiteList(state, partner, 2).bytes, again.bytes);
  assert.deepEqual(renderSiteList(state, partner).bytes, again.bytes);
});

test('sites per block must be a whole number of at least 1', async () => {
  const { state } = await fleetCore(sitesOnly());
  for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new SiteListCache(state, bad), RangeError);
});
