/**
 * The Bearer check of interface A (maintenance-and-fleet-api.md, "Authentication / Interface A"):
 * PBX credentials are not enough, no address restriction, no lockout, failures not reported.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxControl } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertCommandList, assertErrorAnswer, assertExactAnswer } from './support/api-answers.ts';
import type { ApiAuth, ApiRequest } from './support/api-exchange.ts';
import { COMMAND_LIST_PATH, clientAuth, commandPath, requestCommandList } from './support/api-requests.ts';
import { maintenanceTarget, noApiReason, withMaintenanceControl } from './support/maintenance-access.ts';
import { neverIssuedToken } from './support/maintenance-arbitraries.ts';
import { sendApiRequest } from './support/maintenance-client.ts';
import { neverIssuedTokenExample } from './support/never-issued-token.ts';
import { assertTokenAccepted, INVALID_TOKEN_MESSAGE, quietCall } from './support/token-checks.ts';

const SECURITY = memoryKey<Awaited<ReturnType<PbxControl['getState']>>['security']>('security');
const WARNINGS = memoryKey<string[]>('warnings');

/** The fixture PBX user's credentials, or a session, in a form other than a valid Bearer token. */
/** A request that carries a PBX user's login instead of an API token, or why the target cannot make one. */
type LoginRequest = Pick<ApiRequest, 'auth' | 'headers'> & { query?: string };

function pbxLogin(world: PbxWorld, form: string): LoginRequest | string {
  const { login, password, authParam } = world.pbx.xmlrpc;
  switch (form) {
    case 'HTTP Basic authentication':
      return {
        auth: { kind: 'header', value: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
      };
    case 'a Bearer value of the password':
      return { auth: { kind: 'bearer', token: password } };
    case 'a Bearer value of login:password':
      return { auth: { kind: 'bearer', token: `${login}:${password}` } };
    case 'the XML-RPC credentials parameter of the URL':
      return {
        auth: { kind: 'none' },
        query: `?${encodeURIComponent(authParam)}=${xmlRpcAuthValue(login, password)}`,
      };
    case 'the cookie of a signed-in web session': {
      const cookie = maintenanceTarget(world)?.sessionCookie;
      if (!cookie)
        return `target "${world.target.name}" names no maintenance.sessionCookie (a signed-in web session of a PBX user)`;
      return { auth: { kind: 'none' }, headers: { Cookie: cookie } };
    }
    default:
      throw new Error(`unknown credential form "${form}"`);
  }
}

const LOGIN_FORMS =
  /(HTTP Basic authentication|a Bearer value of the password|a Bearer value of login:password|the XML-RPC credentials parameter of the URL|the cookie of a signed-in web session)/;

async function callWithLogin(world: PbxWorld, method: string, path: string, form: string) {
  if (!maintenanceTarget(world)) return world.notVerifiable(noApiReason(world));
  const login = pbxLogin(world, form);
  if (typeof login === 'string') return world.notVerifiable(login);
  await sendApiRequest(world, {
    method,
    path: `${path}${login.query ?? ''}`,
    auth: login.auth,
    ...(login.headers ? { headers: login.headers } : {}),
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
  return undefined;
}

When(
  new RegExp(`^a client requests the command list with the PBX user's credentials as ${LOGIN_FORMS.source}$`),
  function (this: PbxWorld, form: string) {
    return callWithLogin(this, 'GET', COMMAND_LIST_PATH, form);
  },
);

When(
  new RegExp(`^a client posts "([^"]*)" with the PBX user's credentials as ${LOGIN_FORMS.source}$`),
  function (this: PbxWorld, command: string, form: string) {
    return callWithLogin(this, 'POST', commandPath(command), form);
  },
);

Then(
  'the token is accepted from the listed and from the unlisted client address',
  async function (this: PbxWorld) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const { listedClientAddress, unlistedClientAddress } = this.pbx;
    if (!unlistedClientAddress)
      return this.notVerifiable(`target "${this.target.name}" gives only one client address`);
    for (const address of [listedClientAddress, unlistedClientAddress]) {
      assertCommandList(await requestCommandList(this, auth, address));
      const answer = await sendApiRequest(this, {
        method: 'POST',
        path: commandPath('DeleteTemporaryFiles'),
        auth,
        body: '{}',
        localAddress: address,
      });
      assertExactAnswer(answer, 200, { status: 'ok' });
    }
    return undefined;
  },
);

/** One failed token check of a generated kind, alternating the two endpoints. */
async function failedCheck(world: PbxWorld, index: number, auth: ApiAuth): Promise<void> {
  const [method, path] =
    index % 2 === 0 ? ['GET', COMMAND_LIST_PATH] : ['POST', commandPath('DeleteTemporaryFiles')];
  assertErrorAnswer(await quietCall(world, method, path, auth), 401, INVALID_TOKEN_MESSAGE);
}

When(
  'a client makes {int} calls with tokens that were never issued',
  async function (this: PbxWorld, count: number) {
    if (!maintenanceTarget(this)) return this.notVerifiable(noApiReason(this));
    for (let i = 0; i < count; i++)
      await failedCheck(this, i, { kind: 'bearer', token: neverIssuedTokenExample() });
    this.evidence({
      exchange: `${count} calls with tokens that were never issued`,
      details: { allAnswered: 401 },
    });
    return undefined;
  },
);

When('a client makes {int} calls without a token', async function (this: PbxWorld, count: number) {
  if (!maintenanceTarget(this)) return this.notVerifiable(noApiReason(this));
  for (let i = 0; i < count; i++) await failedCheck(this, i, { kind: 'none' });
  this.evidence({ exchange: `${count} calls without a token`, details: { allAnswered: 401 } });
  return undefined;
});

/** A failed check: a never-issued token, no token, or the valid token under another scheme. */
const failedAuth = (valid: string): fc.Arbitrary<ApiAuth> =>
  fc.oneof(
    neverIssuedToken.map((token): ApiAuth => ({ kind: 'bearer', token })),
    fc.constant<ApiAuth>({ kind: 'none' }),
    fc
      .constantFrom('Basic', 'Token', 'Digest')
      .map((scheme): ApiAuth => ({ kind: 'header', value: `${scheme} ${valid}` })),
  );

Then(
  'after every generated series of failed token checks the valid token is still accepted \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped' || auth.kind !== 'bearer') return 'skipped';
    await assertLiveProperty(
      this,
      'no lockout',
      fc.asyncProperty(
        fc.array(failedAuth(auth.token), { minLength: 1, maxLength: 40 }),
        async (failures) => {
          for (const [i, failure] of failures.entries()) await failedCheck(this, i, failure);
          await assertTokenAccepted(this, auth.token, 'DeleteTemporaryFiles');
        },
      ),
      runs,
    );
    return undefined;
  },
);

Given("the operator notes the PBX's security figures and module UI warnings", function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the security figures', async ({ control }) => {
    this.memory.set(SECURITY, (await control.getState()).security);
    this.memory.set(WARNINGS, await control.warnings());
  });
});

Then("the PBX's security figures and module UI warnings are as noted", function (this: PbxWorld) {
  return withMaintenanceControl(this, 'read the security figures', async ({ control }) => {
    assert.deepStrictEqual(
      (await control.getState()).security,
      this.memory.get(SECURITY),
      'security figures',
    );
    assert.deepStrictEqual(await control.warnings(), this.memory.get(WARNINGS), 'module UI warnings');
  });
});
