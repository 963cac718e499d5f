import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { TokenInfo } from '../../../simulators/pbx/index.ts';
import type { PbxWorld } from '../../support/world.ts';
import {
  assertCommandList,
  assertErrorAnswer,
  assertExactAnswer,
  assertMatchesSchema,
} from './api-answers.ts';
import type { ApiAuth, ApiExchange } from './api-exchange.ts';
import { COMMAND_LIST_PATH, commandPath } from './api-requests.ts';
import { settle } from './completion-watch.ts';
import { type MaintenanceControls, pbxUsers } from './maintenance-access.ts';
import { sendApiRequest } from './maintenance-client.ts';
import { maintenanceContext } from './maintenance-context.ts';

export const DAY_MS = 86_400_000;
/**
 * How far from a token's expiry instant a call must be to have a stated outcome: the expiry's
 * granularity and time zone, and whether the token is valid during its expiry date, are open
 * (MAINT-UNSPEC-TOKEN-EXPIRY); two days hold for a day-granular date in any time zone.
 */
export const EXPIRY_MARGIN_MS = 2 * DAY_MS;
export const INVALID_TOKEN_MESSAGE = 'invalid or missing API token';

/** A request of a property run or a series of calls: no evidence, not recorded as the scenario's last answer. */
export function quietCall(
  world: PbxWorld,
  method: string,
  path: string,
  auth: ApiAuth,
): Promise<ApiExchange> {
  const body = method === 'POST' ? { body: '{}' } : {};
  return sendApiRequest(world, { method, path, auth, ...body }, { evidence: false, record: false });
}

/** The token created last in this scenario. */
export function lastCreated(world: PbxWorld) {
  const created = maintenanceContext(world).created.at(-1);
  assert.ok(created, 'no token was created in this scenario');
  return created;
}

/** The token created in this scenario with this label. */
export function createdByLabel(world: PbxWorld, label: string) {
  const created = maintenanceContext(world).created.find((token) => token.label === label);
  assert.ok(created, `no token labelled "${label}" was created in this scenario`);
  return created;
}

/** The token list as an administrator sees it, each entry validated against token-info.schema.json. */
export async function listAsAdmin(controls: MaintenanceControls): Promise<TokenInfo[]> {
  const { admin } = await pbxUsers(controls.control);
  const list = await controls.maintenance.listTokens({ actor: admin });
  for (const entry of list) assertMatchesSchema(entry, 'token-info', `token ${entry.id} in the list`);
  return list;
}

/** Labels with a non-blank character, up to 60 characters (longer ones are the UI's business). */
export const generatedLabel = fc
  .string({ minLength: 1, maxLength: 60 })
  .filter((label) => label.trim() !== '');
/** No expiry, or one between a day and ten years ahead. */
export const generatedExpiry = fc.option(fc.integer({ min: EXPIRY_MARGIN_MS, max: 3650 * DAY_MS }), {
  nil: null,
});
/** The command list and a POST of `command` with `token`: both must be accepted. */
export async function assertTokenAccepted(world: PbxWorld, token: string, command?: string): Promise<void> {
  const auth: ApiAuth = { kind: 'bearer', token };
  assertCommandList(await quietCall(world, 'GET', COMMAND_LIST_PATH, auth));
  if (command !== undefined)
    assertExactAnswer(await quietCall(world, 'POST', commandPath(command), auth), 200, { status: 'ok' });
}

/** Both endpoints answer `token` with 401 `invalid or missing API token`. */
export async function assertTokenRefused(world: PbxWorld, token: string): Promise<void> {
  const auth: ApiAuth = { kind: 'bearer', token };
  assertErrorAnswer(await quietCall(world, 'GET', COMMAND_LIST_PATH, auth), 401, INVALID_TOKEN_MESSAGE);
  assertErrorAnswer(
    await quietCall(world, 'POST', commandPath('DeleteTemporaryFiles'), auth),
    401,
    INVALID_TOKEN_MESSAGE,
  );
}

/** After a restart the web faces are away until it ends; let the PBX clock run past it. */
export async function letRestartFinish(controls: MaintenanceControls): Promise<void> {
  await settle(controls);
  const [state, now] = await Promise.all([
    controls.control.getState(),
    controls.control.now().then((c) => c.now),
  ]);
  const until = state.maintenance.restartingUntil;
  if (until > now) await controls.control.advanceClock({ ms: until - now + 1 });
}
