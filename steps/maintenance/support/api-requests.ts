import type { PbxWorld } from '../../support/world.ts';
import type { ApiAuth, ApiExchange, ApiRequest } from './api-exchange.ts';
import { takeMarks } from './completion-watch.ts';
import { clientToken, maintenanceTarget, noTokenReason } from './maintenance-access.ts';
import { sendApiRequest } from './maintenance-client.ts';
import { maintenanceContext } from './maintenance-context.ts';

/** Path of the command list below the API base (MAINT-UNSPEC-PATH-V1). */
export const COMMAND_LIST_PATH = '/system-functions';

export function commandPath(command: string): string {
  return `${COMMAND_LIST_PATH}/${command}`;
}

/** Headers of a POST whose body is empty: `Content-Length: 0`. */
export const EMPTY_BODY_HEADERS: Readonly<Record<string, string>> = { 'Content-Length': '0' };

/**
 * The bearer auth of "the API client", or `'skipped'` (after reporting not verifiable) when the
 * target offers no valid token.
 */
export async function clientAuth(world: PbxWorld): Promise<ApiAuth | 'skipped'> {
  const token = await clientToken(world);
  if (token === undefined) return world.notVerifiable(noTokenReason(world));
  return { kind: 'bearer', token };
}

/**
 * Notes where the completion events and the module log stand before a command is posted, so
 * later steps see only what this command brought. Without a control plane nothing is noted (the
 * steps that read these report not verifiable).
 */
export async function markBeforeCommand(world: PbxWorld, command: string): Promise<void> {
  const context = maintenanceContext(world);
  context.lastCommand = command;
  const target = maintenanceTarget(world);
  if (world.control && target?.control) {
    context.marks = await takeMarks({ control: world.control, maintenance: target.control });
    context.callStartedAt = context.marks.at;
  }
}

/** Posts a command as a step does: marks first, then the request with evidence. */
export async function postCommand(
  world: PbxWorld,
  command: string,
  auth: ApiAuth,
  body: string | undefined,
  headers: Record<string, string> = {},
): Promise<ApiExchange> {
  await markBeforeCommand(world, command);
  const request: ApiRequest = { method: 'POST', path: commandPath(command), auth, headers };
  if (body !== undefined) request.body = body;
  return sendApiRequest(world, request);
}

/** The command list, as a step requests it. */
export function requestCommandList(
  world: PbxWorld,
  auth: ApiAuth,
  localAddress?: string,
): Promise<ApiExchange> {
  return sendApiRequest(world, {
    method: 'GET',
    path: COMMAND_LIST_PATH,
    auth,
    ...(localAddress ? { localAddress } : {}),
  });
}

/** A JSON body of exactly `bytes` UTF-8 bytes (an object with one unknown field where it fits). */
export function jsonBodyOfSize(bytes: number): string {
  const frame = '{"padding":""}';
  if (bytes >= frame.length) return `{"padding":"${'x'.repeat(bytes - frame.length)}"}`;
  if (bytes >= 2) return `{}${' '.repeat(bytes - 2)}`;
  return ' '.repeat(bytes);
}
