import assert from 'node:assert/strict';
import type { PbxWorld } from '../../support/world.ts';
import { assertCommandList } from './api-answers.ts';
import type { ApiAuth, ApiExchange } from './api-exchange.ts';
import { commandPath, requestCommandList } from './api-requests.ts';
import { awaitCompletionEvents, takeMarks } from './completion-watch.ts';
import type { MaintenanceControls } from './maintenance-access.ts';
import { sendApiRequest } from './maintenance-client.ts';
import { maintenanceContext } from './maintenance-context.ts';

/**
 * The system actions, posted last: after them the PBX restarts or changes its version. Properties
 * leave them out (a real PBX would restart or update on every run); the scenarios that post every
 * listed command post them once.
 */
export const SYSTEM_ACTIONS = ['UpdatePbx', 'RestartPbx'];

/** Parameters that make a maintenance action run (its required ones), per command. */
export const RUNNABLE_BODY: Record<string, Record<string, unknown>> = {
  DeleteCallData: { confirmed: true },
  ProvisionDevices: { type: 'sip' },
};

/** A request of a property run: no evidence per run (the property attaches its own), not recorded. */
export function quietPost(
  world: PbxWorld,
  command: string,
  auth: ApiAuth,
  body: string,
): Promise<ApiExchange> {
  return sendApiRequest(
    world,
    { method: 'POST', path: commandPath(command), auth, body },
    { evidence: false, record: false },
  );
}

/** The names of the command list, without the ones a property must not post repeatedly. */
export async function listedCommands(
  world: PbxWorld,
  auth: ApiAuth,
  without: string[] = [],
): Promise<string[]> {
  const names = assertCommandList(await requestCommandList(world, auth));
  return names.filter((name) => !without.includes(name));
}

/** The marks the last posted command took; fails when none were taken. */
export function marksOf(world: PbxWorld) {
  const marks = maintenanceContext(world).marks;
  assert.ok(marks, 'no command was posted with the control plane watching');
  return marks;
}

/** One run of a command through the control plane's eyes: its answer and the events it brought. */
export async function postAndWatch(
  world: PbxWorld,
  controls: MaintenanceControls,
  auth: ApiAuth,
  command: string,
  body: Record<string, unknown>,
) {
  const marks = await takeMarks(controls);
  const exchange = await quietPost(world, command, auth, JSON.stringify(body));
  const events = await awaitCompletionEvents(controls, marks, command);
  return { exchange, events };
}
