/** The site list, its schema, visibility and the findings (features/fleet/sites-and-findings.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import pactum from 'pactum';
import type { PbxWorld } from '../support/world.ts';
import { isEpochMs } from './support/epoch-ms.ts';
import { eventually } from './support/eventually.ts';
import { FINDING_CAUSES, type UndoCause } from './support/finding-causes.ts';
import { API_BASE, type FleetContext, type ItemView, type SiteView } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import { restEvidence } from './support/fleet-rest.ts';
import { type FleetSchemaName, fleetSchemaErrors } from './support/fleet-schemas.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { FleetRole, SiteRole } from './support/fleet-target.ts';

function lastAnswer(fleet: FleetContext) {
  const res = fleet.last;
  if (!res) throw new Error('no request was sent to the controller in this scenario');
  return res;
}

/** The site list of the last "requests the site list" step. */
function lastSites(fleet: FleetContext): SiteView[] {
  const sites = fleet.kept.get('siteList');
  assert.ok(Array.isArray(sites), 'the scenario received no site list');
  return sites as SiteView[];
}

When(
  '{fleetCaller} requests the site list',
  fleetStep(async (fleet, caller: FleetRole) => {
    const res = await fleet.rest('GET', `${API_BASE}/sites`, caller);
    if (res.status === 200) fleet.kept.set('siteList', res.json);
    if (res.status === 200 && res.headers['etag']) fleet.kept.set(`etag:${caller}`, res.headers['etag']);
  }),
);

When(
  '{fleetCaller} requests the history of {fleetSite}',
  fleetStep(async (fleet, caller: FleetRole, site: SiteRole) => {
    await fleet.history(caller, await fleet.siteId(site));
  }),
);

Then(
  'the controller answers {int}',
  fleetStep(async (fleet, status: number) => {
    pactum.expect(lastAnswer(fleet).raw).to.have.status(status);
  }),
);

Then(
  "the controller's answer is successful",
  fleetStep(async (fleet) => {
    const { status } = lastAnswer(fleet);
    assert.ok(status >= 200 && status < 300, `expected a 2xx answer, got ${status}`);
  }),
);

Then(
  "the controller's answer carries an ETag",
  fleetStep(async (fleet) => {
    const etag = lastAnswer(fleet).headers['etag'];
    assert.ok(etag !== undefined && etag.trim() !== '', 'the answer has no ETag header');
  }),
);

Then(
  "the controller's answer is a(n) {fleetSchema} as the schema describes it",
  fleetStep(async (fleet, schema: FleetSchemaName) => {
    const res = lastAnswer(fleet);
    assert.notEqual(res.json, undefined, `the body is not JSON: ${res.text.slice(0, 200)}`);
    const errors = fleetSchemaErrors(schema, res.json);
    assert.equal(errors, null, `the body does not match the ${schema} schema: ${errors}`);
    if (schema === 'acknowledge result') {
      // FLEET-ACK-RESULT-SCHEMA: acknowledgedAt is ms since 1970 UTC, not merely an integer.
      const at = (res.json as { acknowledgedAt?: unknown }).acknowledgedAt;
      assert.ok(isEpochMs(at), `acknowledgedAt is ${JSON.stringify(at)}, not ms since 1970 UTC`);
    }
  }),
);

Then(
  "the controller's answer is JSON encoded in UTF-8",
  fleetStep(async (fleet) => {
    const res = lastAnswer(fleet);
    const type = res.headers['content-type'] ?? '';
    assert.match(type, /^application\/(?:[\w.+-]+\+)?json\b/i, `Content-Type is "${type}"`);
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
    assert.ok(charset === undefined || /^utf-8$/i.test(charset), `the charset is ${charset}, not UTF-8`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(res.bytes);
    } catch {
      assert.fail('the body is not valid UTF-8');
    }
    assert.doesNotThrow(() => JSON.parse(text), 'the body is not JSON');
  }),
);

Then(
  'every site in the list has a string id, a string displayName and a list of attention strings',
  fleetStep(async (fleet) => {
    for (const site of lastSites(fleet)) {
      assert.equal(typeof site.id, 'string', `a site id is ${JSON.stringify(site.id)}`);
      assert.equal(typeof site.displayName, 'string', `${site.id}: displayName is not a string`);
      assert.ok(
        Array.isArray(site.attention) && site.attention.every((k) => typeof k === 'string'),
        `${site.id}: attention is not a list of strings`,
      );
      if (site.attentionEvents !== undefined) assert.ok(Array.isArray(site.attentionEvents));
    }
  }),
);

Then(
  'the id of every listed site is accepted as siteId by the history endpoint',
  fleetStep(async (fleet) => {
    for (const site of lastSites(fleet)) {
      const res = await fleet.history('partner', site.id);
      assert.ok(res.status >= 200 && res.status < 300, `history of ${site.id} answered ${res.status}`);
    }
  }),
);

Then(
  'the id of {fleetSite} is accepted as siteId when the partner acknowledges {string}',
  fleetStep(async (fleet, role: SiteRole, label: string) => {
    const siteId = await fleet.siteId(role);
    const site = lastSites(fleet).find((s) => s.id === siteId);
    assert.ok(site, `${siteId} is not in the site list`);
    const id = await fleet.itemId(label);
    const res = await fleet.acknowledge('partner', site.id, id);
    assert.equal(res.status, 200, `acknowledge under siteId ${site.id} answered ${res.status}`);
  }),
);

Then(
  'every attention key in the site list is one of {names}',
  fleetStep(async (fleet, keys: string[]) => {
    const sites = [
      ...(fleet.kept.has('siteList') ? lastSites(fleet) : []),
      ...(await fleet.siteList('partner')),
    ];
    for (const site of sites) {
      for (const key of site.attention)
        assert.ok(keys.includes(key), `${site.id} has the attention key "${key}"`);
    }
  }),
);

// --- visibility --------------------------------------------------------------------------------

/** The partner ids the control plane knows for the partner and the other partner. */
function partnerIds(fleet: FleetContext): { mine: string; theirs: string } {
  const mine = fleet.account('partner').partnerId;
  const theirs = fleet.account('otherPartner').partnerId;
  if (!mine || !theirs) notVerifiable('the target names no control-plane partnerId for the partners');
  return { mine, theirs };
}

Given(
  'the fleet operator adds a site {string} owned by the partner',
  fleetStep(async (fleet, name: string) => {
    const control = fleet.control('add a site');
    const id = `site-${fleet.tag}-${fleet.kept.size}`;
    await control.addSite({ id, displayName: name });
    await control.grant({ partnerId: partnerIds(fleet).mine, siteId: id, kind: 'own' });
    fleet.kept.set(`site:${name}`, id);
  }),
);

Given(
  'the fleet operator adds a site {string} owned by the other partner and managed by the partner',
  fleetStep(async (fleet, name: string) => {
    const control = fleet.control('add a site');
    const { mine, theirs } = partnerIds(fleet);
    const id = `site-${fleet.tag}-${fleet.kept.size}`;
    await control.addSite({ id, displayName: name });
    await control.grant({ partnerId: theirs, siteId: id, kind: 'own' });
    await control.grant({ partnerId: mine, siteId: id, kind: 'managed' });
    fleet.kept.set(`site:${name}`, id);
  }),
);

Given(
  'the fleet operator adds a site {string} owned by the other partner alone',
  fleetStep(async (fleet, name: string) => {
    const control = fleet.control('add a site');
    const id = `site-${fleet.tag}-${fleet.kept.size}`;
    await control.addSite({ id, displayName: name });
    await control.grant({ partnerId: partnerIds(fleet).theirs, siteId: id, kind: 'own' });
    fleet.kept.set(`site:${name}`, id);
  }),
);

function addedSite(fleet: FleetContext, name: string): string {
  const id = fleet.kept.get(`site:${name}`);
  if (typeof id !== 'string') throw new Error(`the scenario added no site "${name}"`);
  return id;
}

Then(
  'the site list contains the added sites {string} and {string}',
  fleetStep(async (fleet, first: string, second: string) => {
    const ids = lastSites(fleet).map((s) => s.id);
    for (const name of [first, second]) {
      assert.ok(
        ids.includes(addedSite(fleet, name)),
        `"${name}" (${addedSite(fleet, name)}) is not in the list`,
      );
    }
  }),
);

Then(
  'the site list does not contain the added site {string}',
  fleetStep(async (fleet, name: string) => {
    const id = addedSite(fleet, name);
    assert.ok(!lastSites(fleet).some((s) => s.id === id), `"${name}" (${id}) is in the partner's list`);
  }),
);

Given(
  "the foreign site is in the other partner's site list",
  fleetStep(async (fleet) => {
    const foreign = await fleet.siteId('foreign');
    const theirs = await fleet.siteList('otherPartner');
    assert.ok(
      theirs.some((s) => s.id === foreign),
      `${foreign} is not in the other partner's list`,
    );
  }),
);

Then(
  'the foreign site is not in the site list',
  fleetStep(async (fleet) => {
    const foreign = await fleet.siteId('foreign');
    assert.ok(!lastSites(fleet).some((s) => s.id === foreign), `${foreign} is in the partner's site list`);
  }),
);

// --- findings ----------------------------------------------------------------------------------

async function findingProblem(
  fleet: FleetContext,
  siteId: string,
  key: string,
  wanted: boolean,
): Promise<string | null> {
  const site = await fleet.site('partner', siteId, { evidence: false });
  if (!site) return `${siteId} is not in the partner's site list`;
  const shown = site.attention.includes(key);
  if (shown === wanted) return null;
  return `${siteId} ${wanted ? 'does not show' : 'still shows'} "${key}" (attention: ${JSON.stringify(site.attention)})`;
}

/** Waits until the finding shows (or is gone): the controller learns of PBX changes over its link. */
async function expectFinding(
  world: PbxWorld,
  fleet: FleetContext,
  role: SiteRole,
  key: string,
  wanted: boolean,
) {
  const siteId = await fleet.siteId(role);
  const problem = await eventually(() => findingProblem(fleet, siteId, key, wanted));
  if (fleet.last) world.evidence(restEvidence(fleet.last));
  assert.equal(problem, null, problem ?? '');
}

Given(
  '{fleetSite} shows no finding {string}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, key: string) {
    const siteId = await fleet.siteId(role);
    // A PBX of the site must be there for the scenario's cause; on a fresh one the findings settle first.
    await fleet.pbx(siteId, `make a cause of "${key}"`);
    const problem = await eventually(() => findingProblem(fleet, siteId, key, false));
    if (problem) notVerifiable(`${siteId} shows "${key}" before the scenario makes a cause for it`);
    fleet.kept.set(`openBefore:${siteId}`, await fleet.openItems('partner', siteId));
  }),
);

When(
  'the PBX of {fleetSite} gets {}',
  fleetStep(async (fleet, role: SiteRole, cause: string) => {
    const make = FINDING_CAUSES[cause];
    if (!make) throw new Error(`no finding cause is described as "${cause}"`);
    const plane = await fleet.pbx(await fleet.siteId(role), `make ${cause}`);
    fleet.kept.set('undoCause', await make(plane));
  }),
);

When(
  'the cause is removed on the PBX of {fleetSite}',
  fleetStep(async (fleet, _role: SiteRole) => {
    const undo = fleet.kept.get('undoCause') as UndoCause | undefined;
    if (!undo) throw new Error('the scenario made no cause');
    await undo();
  }),
);

Then(
  '{fleetSite} shows the finding {string}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, key: string) {
    await expectFinding(this, fleet, role, key, true);
  }),
);

Then(
  '{fleetSite} still shows the finding {string}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, key: string) {
    await expectFinding(this, fleet, role, key, true);
  }),
);

Then(
  '{fleetSite} does not show the finding {string}',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, key: string) {
    await expectFinding(this, fleet, role, key, false);
  }),
);

Then(
  'the finding {string} leaves {fleetSite}',
  fleetStep(async function (this: PbxWorld, fleet, key: string, role: SiteRole) {
    await expectFinding(this, fleet, role, key, false);
  }),
);

Then(
  'no open message of {fleetSite} stands for the finding {string}',
  fleetStep(async (fleet, role: SiteRole, key: string) => {
    const siteId = await fleet.siteId(role);
    const before = (fleet.kept.get(`openBefore:${siteId}`) as ItemView[] | undefined) ?? [];
    const now = await fleet.openItems('partner', siteId);
    const added = now.filter((item) => !before.some((b) => b.id === item.id));
    assert.deepEqual(
      added.map((i) => `${i.module}: ${i.subject}`),
      [],
      `open messages appeared with the finding "${key}"`,
    );
  }),
);

When(
  '{fleetCaller} tries to acknowledge {string} as an attentionId on {fleetSite}',
  fleetStep(async (fleet, caller: FleetRole, id: string, role: SiteRole) => {
    await fleet.acknowledge(caller, await fleet.siteId(role), id);
  }),
);

When(
  '{fleetCaller} acknowledges every open message of {fleetSite}',
  fleetStep(async (fleet, caller: FleetRole, role: SiteRole) => {
    const siteId = await fleet.siteId(role);
    for (const item of await fleet.openItems(caller, siteId)) {
      const res = await fleet.acknowledge(caller, siteId, item.id);
      assert.equal(res.status, 200, `acknowledging ${item.id} answered ${res.status}`);
    }
  }),
);
