/** Sign-in, access rights and error answers (features/fleet/errors-and-access.feature). */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { binaryUnit } from '../support/binary-unit.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { API_BASE, type Caller, type FleetContext } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import type { FleetResponse } from './support/fleet-rest.ts';
import { fleetSchemaErrors } from './support/fleet-schemas.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { FleetRole, SiteRole } from './support/fleet-target.ts';
import { looksGerman } from './support/german-text.ts';
import { codePoints } from './support/text-limit.ts';

type Endpoint = 'sites' | 'history' | 'acknowledge';

/** Sends one request to an endpoint as `caller` (an acknowledge addresses item 1 with `{}`). */
async function requestEndpoint(fleet: FleetContext, endpoint: Endpoint, caller: Caller, evidence = true) {
  const options = { evidence };
  if (endpoint === 'sites') return fleet.rest('GET', `${API_BASE}/sites`, caller, options);
  const siteId = await fleet.siteId('own');
  if (endpoint === 'history') return fleet.history(caller, siteId, options);
  return fleet.acknowledge(caller, siteId, 1, '{}', options);
}

/** Credentials of no account: an address under a reserved domain that no controller knows. */
function noAccount(): Caller {
  return {
    kind: 'basic',
    email: `niemand-${randomBytes(4).toString('hex')}@konten.invalid`,
    password: 'Kein-Konto-1',
    who: 'no account',
  };
}

When(
  'a client without credentials requests {fleetEndpoint}',
  fleetStep(async (fleet, endpoint: Endpoint) => {
    await requestEndpoint(fleet, endpoint, { kind: 'none' });
  }),
);

When(
  'a client with the credentials of no account requests {fleetEndpoint}',
  fleetStep(async (fleet, endpoint: Endpoint) => {
    await requestEndpoint(fleet, endpoint, noAccount());
  }),
);

When(
  "a client with a wrong password of the partner's account requests {fleetEndpoint}",
  fleetStep(async (fleet, endpoint: Endpoint) => {
    const { email, password } = fleet.account('partner');
    await requestEndpoint(fleet, endpoint, {
      kind: 'basic',
      email,
      password: `${password}-falsch`,
      who: 'wrong password',
    });
  }),
);

/** Why an answer is not `status` without an `error` code, or `null` (FLEET-UNSPEC-401-404-BODY). */
function withoutCodeProblem(res: FleetResponse, status: number): string | null {
  if (res.status !== status) return `answered ${res.status}, not ${status}`;
  const body = res.json;
  if (typeof body === 'object' && body !== null && 'error' in body) {
    return `the ${status} answer carries the error code ${JSON.stringify((body as { error: unknown }).error)}`;
  }
  return null;
}

Then(
  'the controller answers {int} without an error code',
  fleetStep(async (fleet, status: number) => {
    assert.ok(fleet.last, 'no request was sent');
    const problem = withoutCodeProblem(fleet.last, status);
    assert.equal(problem, null, problem ?? '');
  }),
);

function idpEmail(fleet: FleetContext): string {
  const email = fleet.target.idpOnlyEmail;
  if (!email) notVerifiable(`target "${fleet.target.name}" names no fleet.accounts.idpOnly`);
  return email;
}

When(
  'the identity-provider account requests the site list with {idpPassword}',
  fleetStep(async (fleet, kind: string) => {
    const email = idpEmail(fleet);
    const password =
      kind === 'an empty password'
        ? ''
        : kind.startsWith('its e-mail')
          ? email
          : fleet.account('partner').password;
    await fleet.rest('GET', `${API_BASE}/sites`, {
      kind: 'basic',
      email,
      password,
      who: 'identity-provider account',
    });
  }),
);

Then(
  'every generated password of the identity-provider account is answered 401 \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const email = idpEmail(fleet);
    await assertLiveProperty(
      this,
      'the identity-provider account never signs in',
      fc.asyncProperty(fc.string({ unit: binaryUnit, maxLength: 40 }), async (password) => {
        const caller: Caller = { kind: 'basic', email, password, who: 'identity-provider account' };
        const res = await fleet.rest('GET', `${API_BASE}/sites`, caller, { evidence: false });
        const problem = withoutCodeProblem(res, 401);
        assert.equal(problem, null, problem ?? '');
      }),
      runs,
    );
  }),
);

Then(
  'the controller answers {int} with the error {string} and a German message',
  fleetStep(async (fleet, status: number, code: string) => {
    const res = fleet.last;
    assert.ok(res, 'no request was sent');
    assert.equal(res.status, status, `answered ${res.status}: ${res.text.slice(0, 200)}`);
    const errors = fleetSchemaErrors('error object', res.json);
    assert.equal(errors, null, `the body is not an error object: ${errors}`);
    const body = res.json as { error: string; message: string };
    assert.equal(body.error, code, 'error');
    assert.ok(looksGerman(body.message), `the message "${body.message}" does not read as German`);
  }),
);

Then(
  'every generated comment longer than 1000 characters is answered 400 invalid_request without acknowledging {string} \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, label: string, runs: number) {
    const message = fleet.message(label);
    const id = await fleet.itemId(label);
    // More than 1000 code points is more than 1000 UTF-16 units too (FLEET-UNSPEC-CHARACTER-COUNT).
    const comment = fc
      .string({ unit: 'grapheme', minLength: 1001, maxLength: 1600 })
      .filter((s) => codePoints(s) > 1000);
    await assertLiveProperty(
      this,
      'comments over 1000 characters are refused',
      fc.asyncProperty(comment, async (text) => {
        const res = await fleet.acknowledge(
          'partner',
          message.siteId,
          id,
          JSON.stringify({ comment: text }),
          {
            evidence: false,
          },
        );
        assert.equal(res.status, 400, `a comment of ${codePoints(text)} code points answered ${res.status}`);
        assert.equal((res.json as { error?: unknown } | undefined)?.error, 'invalid_request');
        assert.ok(
          await fleet.findItem('partner', label, { evidence: false }),
          'the message was acknowledged',
        );
      }),
      runs,
    );
  }),
);

/**
 * Headroom above the largest id the lists show: acknowledged items whose history entries the shown
 * history leaves out (FLEET-UNSPEC-HISTORY-PAGING) and items of sites the caller cannot see may hold
 * ids the harness never sees, but not a million past the largest one it does.
 */
const UNUSED_ID_HEADROOM = 1_000_000;

/**
 * The lowest of a range of item ids known to be unused (FLEET-ERR-404-ITEM-UNKNOWN): above the
 * largest id in every site list and history the target's accounts can read, plus headroom. The
 * history may be incomplete (FLEET-UNSPEC-HISTORY-PAGING), so ids are never picked from gaps below.
 */
async function firstUnusedId(fleet: FleetContext): Promise<number> {
  let largest = 0;
  const seen = (id: unknown) => {
    if (typeof id === 'number' && Number.isSafeInteger(id)) largest = Math.max(largest, id);
  };
  const roles = (['partner', 'otherPartner'] as const).filter((r) => fleet.target.accounts[r]);
  for (const role of roles) {
    for (const site of await fleet.siteList(role, { evidence: false })) {
      for (const item of site.attentionEvents ?? []) seen(item.id);
      const history = await fleet.history(role, site.id, { evidence: false });
      for (const entry of Array.isArray(history.json) ? history.json : []) {
        seen((entry as { attention?: { id?: unknown } }).attention?.id);
      }
    }
  }
  const first = largest + UNUSED_ID_HEADROOM;
  if (first > Number.MAX_SAFE_INTEGER - UNUSED_ID_HEADROOM) {
    notVerifiable(`the target's item ids reach ${largest}, too close to 2^53 to leave unused ones above`);
  }
  return first;
}

When(
  '{fleetCaller} acknowledges an attentionId that does not exist on {fleetSite}',
  fleetStep(async (fleet, caller: FleetRole, role: SiteRole) => {
    const id = await firstUnusedId(fleet);
    await fleet.acknowledge(caller, await fleet.siteId(role), id);
  }),
);

Then(
  'every generated attentionId that does not exist is answered 404 on {fleetSite} \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, role: SiteRole, runs: number) {
    const siteId = await fleet.siteId(role);
    const first = await firstUnusedId(fleet);
    const id = fc.oneof(
      fc.integer({ min: first, max: first + 10_000 }),
      fc.integer({ min: first, max: Number.MAX_SAFE_INTEGER }),
    );
    await assertLiveProperty(
      this,
      'unknown attentionIds are answered 404',
      fc.asyncProperty(id, async (attentionId) => {
        const res = await fleet.acknowledge('partner', siteId, attentionId, '{}', { evidence: false });
        assert.equal(res.status, 404, `attentionId ${attentionId} answered ${res.status}`);
      }),
      runs,
    );
  }),
);

Given(
  "the fleet operator limits the partner's right on the shared site to the module {string}",
  fleetStep(async (fleet, module: string) => {
    const control = fleet.control("limit the partner's right to some modules");
    const partnerId = fleet.account('partner').partnerId;
    if (!partnerId) notVerifiable('the target names no control-plane partnerId for the partner');
    const siteId = await fleet.siteId('shared');
    await control.grant({ partnerId, siteId, kind: 'managed', modules: [fleet.moduleName(module)] });
  }),
);

/** A site id no controller has: random, under a prefix no fixture uses. */
function missingSiteId(): string {
  return `gibt-es-nicht-${randomBytes(6).toString('hex')}`;
}

/** Why two 404 answers differ in what the spec lets us compare: status and error code. */
function sameAnswerProblem(first: FleetResponse, second: FleetResponse): string | null {
  const code = (res: FleetResponse) =>
    typeof res.json === 'object' && res.json !== null ? (res.json as { error?: unknown }).error : undefined;
  if (first.status !== second.status)
    return `answered ${first.status} here and ${second.status} for a missing site`;
  if (code(first) !== code(second))
    return `error ${String(code(first))} here and ${String(code(second))} for a missing site`;
  return null;
}

Then(
  'the answer is the same as for an acknowledge of that attentionId on a site that does not exist',
  fleetStep(async (fleet) => {
    const first = fleet.last;
    assert.ok(first, 'nothing was acknowledged');
    const id = decodeURIComponent(new URL(first.request.url).pathname.split('/').at(-2) ?? '');
    const second = await fleet.acknowledge('partner', missingSiteId(), id);
    const problem = sameAnswerProblem(first, second);
    assert.equal(problem, null, problem ?? '');
  }),
);

Then(
  'the answer is the same as for the history of a site that does not exist',
  fleetStep(async (fleet) => {
    const first = fleet.last;
    assert.ok(first, 'no history was requested');
    const second = await fleet.history('partner', missingSiteId());
    const problem = sameAnswerProblem(first, second);
    assert.equal(problem, null, problem ?? '');
  }),
);

When(
  '{fleetCaller} requests the history of a site that does not exist',
  fleetStep(async (fleet, caller: FleetRole) => {
    await fleet.history(caller, missingSiteId());
  }),
);

When(
  '{fleetCaller} acknowledges attentionId {int} on a site that does not exist',
  fleetStep(async (fleet, caller: FleetRole, id: number) => {
    await fleet.acknowledge(caller, missingSiteId(), id);
  }),
);

Then(
  'acknowledge and history requests for every generated siteId that does not exist are answered 404 \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const visible = new Set((await fleet.siteList('partner')).map((s) => s.id));
    const foreign = new Set(
      fleet.target.accounts.otherPartner ? (await fleet.siteList('otherPartner')).map((s) => s.id) : [],
    );
    const siteId = fc
      .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 })
      .filter((s) => s.trim() !== '' && !visible.has(s) && !foreign.has(s) && s !== '.' && s !== '..');
    await assertLiveProperty(
      this,
      'unknown siteIds are answered 404',
      fc.asyncProperty(siteId, fc.integer({ min: 1, max: 1_000_000 }), async (id, attentionId) => {
        const history = await fleet.history('partner', id, { evidence: false });
        assert.equal(history.status, 404, `history of ${JSON.stringify(id)} answered ${history.status}`);
        const ack = await fleet.acknowledge('partner', id, attentionId, '{}', { evidence: false });
        assert.equal(ack.status, 404, `acknowledge on ${JSON.stringify(id)} answered ${ack.status}`);
      }),
      runs,
    );
  }),
);
