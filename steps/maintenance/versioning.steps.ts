/** Base path, login independence and the module-version gate (maintenance-and-fleet-api.md, part A). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { changeState } from '../support/with-control.ts';
import type { PbxWorld } from '../support/world.ts';
import { answerOf } from './support/api-answers.ts';
import { clientAuth, markBeforeCommand } from './support/api-requests.ts';
import { classifyAnswer } from './support/error-table.ts';
import { sendApiRequest } from './support/maintenance-client.ts';
import { lastExchange } from './support/maintenance-context.ts';

When(
  "the API client requests {string} below the PBX's base URL",
  async function (this: PbxWorld, path: string) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await sendApiRequest(this, { method: 'GET', path, fromWebRoot: true, auth });
    return undefined;
  },
);

When(
  "the API client posts to {string} below the PBX's base URL",
  async function (this: PbxWorld, path: string) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await markBeforeCommand(this, path.slice(path.lastIndexOf('/') + 1));
    await sendApiRequest(this, { method: 'POST', path, fromWebRoot: true, auth, body: '{}' });
    return undefined;
  },
);

Then('the answer is no redirect', function (this: PbxWorld) {
  const response = answerOf(lastExchange(this));
  const status = response.statusCode ?? 0;
  assert.ok(status < 300 || status > 399, `answered ${status}, a redirect`);
  assert.equal(response.headers.location, undefined, 'the answer carries a Location header');
});

Given('the operator sets the module version to {string}', function (this: PbxWorld, version: string) {
  return changeState(this, 'set the module version', { maintenance: { moduleVersion: version } });
});

/**
 * "Serves nothing under the base path" (MAINT-MODULE-VERSION-GATE): no answer of interface A's
 * table, neither a success nor one of its JSON errors, and no 2xx at all. What comes instead (the
 * web server's own 404, a refused path) is not stated.
 */
Then('nothing of the maintenance API answers', function (this: PbxWorld) {
  const exchange = lastExchange(this);
  if (!exchange.response) return;
  const kind = classifyAnswer(exchange);
  assert.ok(typeof kind !== 'string', `interface A answered: ${kind}`);
  const status = exchange.status ?? 0;
  assert.ok(status < 200 || status > 299, `answered ${status}: ${exchange.text.slice(0, 200)}`);
});
