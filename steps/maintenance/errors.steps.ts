/**
 * The error table of interface A over generated requests (maintenance-and-fleet-api.md, "Errors /
 * Interface A"), and the operator's fault for a failed hand-over.
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { withControl } from '../support/with-control.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertCommandList, assertErrorAnswer, assertJsonResponse } from './support/api-answers.ts';
import type { ApiAuth, ApiExchange, ApiRequest } from './support/api-exchange.ts';
import { COMMAND_LIST_PATH, clientAuth, commandPath, requestCommandList } from './support/api-requests.ts';
import { allowedAnswers, classifyAnswer, type RequestConditions } from './support/error-table.ts';
import {
  invalidJsonText,
  neverIssuedToken,
  unknownApiPath,
  unknownCommandName,
  unknownFields,
  wrongMethodRequest,
} from './support/maintenance-arbitraries.ts';
import { sendApiRequest } from './support/maintenance-client.ts';

function quiet(world: PbxWorld, request: ApiRequest): Promise<ApiExchange> {
  return sendApiRequest(world, request, { evidence: false, record: false });
}

Given('the operator makes the command hand-over fail', function (this: PbxWorld) {
  return withControl(this, 'inject a failed command hand-over', (control) =>
    control.injectFault({ name: 'command-handover-failure' }),
  );
});

Then(
  'every generated token that was never issued is answered 401 with {string} on both endpoints \\({int} runs)',
  async function (this: PbxWorld, message: string, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await assertLiveProperty(
      this,
      'never-issued tokens get 401',
      fc.asyncProperty(neverIssuedToken, async (token) => {
        fc.pre(auth.kind !== 'bearer' || token !== auth.token);
        const bearer: ApiAuth = { kind: 'bearer', token };
        assertErrorAnswer(
          await quiet(this, { method: 'GET', path: COMMAND_LIST_PATH, auth: bearer }),
          401,
          message,
        );
        const post = await quiet(this, {
          method: 'POST',
          path: commandPath('DeleteTemporaryFiles'),
          auth: bearer,
          body: '{}',
        });
        assertErrorAnswer(post, 401, message);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  'every generated unknown path below the API base is answered 404 with {string} for GET and POST \\({int} runs)',
  async function (this: PbxWorld, message: string, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await assertLiveProperty(
      this,
      'unknown paths get 404 unknown endpoint',
      fc.asyncProperty(unknownApiPath, fc.constantFrom('GET', 'POST'), async (path, method) => {
        const request: ApiRequest = { method, path, auth, ...(method === 'POST' ? { body: '{}' } : {}) };
        assertErrorAnswer(await quiet(this, request), 404, message);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  'every generated wrong method on a known path is answered 404 with {string} \\({int} runs)',
  async function (this: PbxWorld, message: string, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await assertLiveProperty(
      this,
      'wrong methods get 404 unknown endpoint',
      fc.asyncProperty(wrongMethodRequest, async ({ method, path }) => {
        assertErrorAnswer(await quiet(this, { method, path, auth }), 404, message);
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  'every generated name outside the command list, posted as a command, is answered 404 with {string} \\({int} runs)',
  async function (this: PbxWorld, message: string, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const listed = new Set(
      assertCommandList(await requestCommandList(this, auth)).map((n) => n.toLowerCase()),
    );
    await assertLiveProperty(
      this,
      'unlisted names get 404 unknown command',
      fc.asyncProperty(unknownCommandName, async (name) => {
        fc.pre(!listed.has(name.toLowerCase()));
        const exchange = await quiet(this, { method: 'POST', path: commandPath(name), auth, body: '{}' });
        assertErrorAnswer(exchange, 404, message);
      }),
      runs,
    );
    return undefined;
  },
);

/** A generated request and the conditions the error table looks at. */
interface GeneratedRequest {
  request: ApiRequest;
  conditions: RequestConditions;
}

function generatedRequests(valid: string, listed: string[]): fc.Arbitrary<GeneratedRequest> {
  const auth = fc.oneof(
    fc.constant({ auth: { kind: 'bearer', token: valid } as ApiAuth, tokenInvalid: false }),
    fc.constant({ auth: { kind: 'none' } as ApiAuth, tokenInvalid: true }),
    fc.constant({ auth: { kind: 'header', value: 'Bearer' } as ApiAuth, tokenInvalid: true }),
    neverIssuedToken
      .filter((token) => token !== valid)
      .map((token) => ({ auth: { kind: 'bearer', token } as ApiAuth, tokenInvalid: true })),
    fc.constantFrom('Basic', 'Token', 'Digest').map((scheme) => ({
      auth: { kind: 'header', value: `${scheme} ${valid}` } as ApiAuth,
      tokenInvalid: true,
    })),
  );
  const listedLower = new Set(listed.map((name) => name.toLowerCase()));
  const path = fc.oneof(
    fc.constant({ path: COMMAND_LIST_PATH, kind: 'list' as const }),
    fc.constantFrom(...listed).map((name) => ({ path: commandPath(name), kind: 'command' as const })),
    unknownCommandName
      .filter((name) => !listedLower.has(name.toLowerCase()))
      .map((name) => ({ path: commandPath(name), kind: 'unlisted' as const })),
    unknownApiPath.map((p) => ({ path: p, kind: 'unknown' as const })),
  );
  const body = fc.option(
    fc.oneof(
      fc.constant('{}'),
      invalidJsonText,
      unknownFields.map((fields) => JSON.stringify(fields)),
    ),
    { nil: undefined },
  );
  return fc
    .record({ method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), auth, path, body })
    .map(({ method, auth: a, path: p, body: b }) => ({
      request: {
        method,
        path: p.path,
        auth: a.auth,
        // Only methods that carry a body get one; a GET body means nothing in HTTP.
        ...(b !== undefined && method !== 'GET' && method !== 'DELETE' ? { body: b } : {}),
      },
      conditions: { tokenInvalid: a.tokenInvalid, path: p.kind, method },
    }));
}

Then(
  'every generated request, well-formed or not, gets an answer the error table allows for it, as application\\/json with a JSON body and never a 5xx \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped' || auth.kind !== 'bearer') return 'skipped';
    // A restart makes the PBX unavailable for a while, which is no answer of the error table, and
    // a real PBX would restart or update on every run.
    const listed = assertCommandList(await requestCommandList(this, auth)).filter(
      (name) => name !== 'RestartPbx' && name !== 'UpdatePbx',
    );
    await assertLiveProperty(
      this,
      'only the error table',
      fc.asyncProperty(generatedRequests(auth.token, listed), async ({ request, conditions }) => {
        const exchange = await quiet(this, request);
        const kind = classifyAnswer(exchange);
        const allowed = allowedAnswers(conditions);
        assert.ok(
          typeof kind === 'string' && allowed.includes(kind),
          `${request.method} ${request.path}: got ${typeof kind === 'string' ? kind : kind.none}, allowed ${allowed.join(' or ')}`,
        );
        assert.ok((exchange.status ?? 0) < 500, `a ${exchange.status} without an injected fault`);
        assertJsonResponse(exchange);
      }),
      runs,
    );
    return undefined;
  },
);
