/**
 * Requests to interface A and the answers of its error table (maintenance-and-fleet-api.md,
 * "Endpoints / Interface A" and "Errors / Interface A"). "The API client" holds a valid token: the
 * scenario's newest, one made through the control plane, or the target file's.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import {
  assertCommandList,
  assertErrorAnswer,
  assertExactAnswer,
  assertJsonResponse,
} from './support/api-answers.ts';
import type { ApiAuth } from './support/api-exchange.ts';
import { clientAuth, EMPTY_BODY_HEADERS, postCommand, requestCommandList } from './support/api-requests.ts';
import { clientToken, maintenanceTarget, noApiReason, noTokenReason } from './support/maintenance-access.ts';
import { sendApiRequest } from './support/maintenance-client.ts';
import { lastExchange, maintenanceContext } from './support/maintenance-context.ts';
import { neverIssuedTokenExample } from './support/never-issued-token.ts';

Given('the API client holds a valid API token', async function (this: PbxWorld) {
  if ((await clientToken(this)) === undefined) return this.notVerifiable(noTokenReason(this));
  return undefined;
});

When('the API client requests the command list', async function (this: PbxWorld) {
  const auth = await clientAuth(this);
  if (auth === 'skipped') return auth;
  if (this.control) maintenanceContext(this).callStartedAt = (await this.control.now()).now;
  await requestCommandList(this, auth);
  return undefined;
});

When('the API client posts {string} with an empty body', async function (this: PbxWorld, command: string) {
  const auth = await clientAuth(this);
  if (auth === 'skipped') return auth;
  await postCommand(this, command, auth, undefined, { ...EMPTY_BODY_HEADERS });
  return undefined;
});

When('the API client posts {string} without any body', async function (this: PbxWorld, command: string) {
  const auth = await clientAuth(this);
  if (auth === 'skipped') return auth;
  await postCommand(this, command, auth, undefined);
  return undefined;
});

When(
  'the API client posts {string} with the body {string}',
  async function (this: PbxWorld, command: string, body: string) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await postCommand(this, command, auth, body);
    return undefined;
  },
);

When(
  'the API client sends {string} to {string} below the API base',
  async function (this: PbxWorld, method: string, path: string) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await sendApiRequest(this, { method, path, auth });
    return undefined;
  },
);

/** Requests of a client that is not "the API client": without a token or with another header. */
async function otherClient(world: PbxWorld, auth: ApiAuth, command?: string): Promise<'skipped' | undefined> {
  if (!maintenanceTarget(world)) return world.notVerifiable(noApiReason(world));
  if (command === undefined) await requestCommandList(world, auth);
  else await postCommand(world, command, auth, undefined, { ...EMPTY_BODY_HEADERS });
  return undefined;
}

When('a client without a token requests the command list', function (this: PbxWorld) {
  return otherClient(this, { kind: 'none' });
});

When(
  'a client without a token posts {string} with an empty body',
  function (this: PbxWorld, command: string) {
    return otherClient(this, { kind: 'none' }, command);
  },
);

When('a client posts {string} without a token', function (this: PbxWorld, command: string) {
  return otherClient(this, { kind: 'none' }, command);
});

When('a client requests the command list with a token that was never issued', function (this: PbxWorld) {
  return otherClient(this, { kind: 'bearer', token: neverIssuedTokenExample() });
});

When(
  'a client posts {string} with a token that was never issued',
  function (this: PbxWorld, command: string) {
    return otherClient(this, { kind: 'bearer', token: neverIssuedTokenExample() }, command);
  },
);

/** An `Authorization` value from the feature; `<token>` stands for the API client's valid token. */
async function headerAuth(world: PbxWorld, value: string): Promise<ApiAuth | 'skipped'> {
  if (!value.includes('<token>')) return { kind: 'header', value };
  const token = await clientToken(world);
  if (token === undefined) return world.notVerifiable(noTokenReason(world));
  return { kind: 'header', value: value.replace('<token>', token) };
}

When(
  'a client requests the command list with the Authorization header {string}',
  async function (this: PbxWorld, value: string) {
    const auth = await headerAuth(this, value);
    if (auth === 'skipped') return auth;
    return otherClient(this, auth);
  },
);

When(
  'a client posts {string} with the Authorization header {string}',
  async function (this: PbxWorld, command: string, value: string) {
    const auth = await headerAuth(this, value);
    if (auth === 'skipped') return auth;
    return otherClient(this, auth, command);
  },
);

Then(
  'the API answers {int} with the JSON body {string}',
  function (this: PbxWorld, status: number, body: string) {
    assertExactAnswer(lastExchange(this), status, JSON.parse(body));
  },
);

Then(
  'the API answers {int} with the error message {string}',
  function (this: PbxWorld, status: number, message: string) {
    assertErrorAnswer(lastExchange(this), status, message);
  },
);

Then('the API answers 200 with a list of command names', function (this: PbxWorld) {
  assertCommandList(lastExchange(this));
});

Then('the answer has Content-Type application\\/json and a JSON body', function (this: PbxWorld) {
  assertJsonResponse(lastExchange(this));
});

Then(
  'every answer of the API in this scenario had Content-Type application\\/json and a JSON body',
  function (this: PbxWorld) {
    const { exchanges } = maintenanceContext(this);
    assert.ok(exchanges.length > 0, 'no request was sent to the maintenance API');
    for (const exchange of exchanges) assertJsonResponse(exchange);
  },
);
