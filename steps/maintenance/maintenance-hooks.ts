/**
 * After a scenario that had a system action accepted on a target without a control plane (a real
 * PBX): RestartPbx restarts it and UpdatePbx may, and nothing resets it for the next scenario. The
 * hook waits, in real time, for the PBX to go away and come back, so later scenarios meet a PBX
 * that answers. With a control plane the common After hook resets the state instead.
 */
import { After } from '@cucumber/cucumber';
import { pollUntil } from '../support/eventually.ts';
import type { PbxWorld } from '../support/world.ts';
import { COMMAND_LIST_PATH } from './support/api-requests.ts';
import { clientToken } from './support/maintenance-access.ts';
import { sendApiRequest } from './support/maintenance-client.ts';
import { maintenanceContext } from './support/maintenance-context.ts';

/** How long a restart or update may take to begin after its 200. */
const GOING_DOWN_MS = 30_000;
/** How long a real PBX may take to restart or update. */
const COMING_BACK_MS = 15 * 60_000;
const POLL_MS = 1_000;

async function commandListAnswers(world: PbxWorld, token: string): Promise<boolean> {
  const exchange = await sendApiRequest(
    world,
    { method: 'GET', path: COMMAND_LIST_PATH, auth: { kind: 'bearer', token }, timeoutMs: 5_000 },
    { evidence: false, record: false },
  );
  return exchange.status === 200;
}

/** Whether `done` holds within `deadlineMs` (real time; the project's one poll helper). */
async function holdsWithin(deadlineMs: number, done: () => Promise<boolean>): Promise<boolean> {
  return (await pollUntil(done, (held) => held, { timeoutMs: deadlineMs, intervalMs: POLL_MS })).ok;
}

After({ timeout: GOING_DOWN_MS + COMING_BACK_MS + 30_000 }, async function (this: PbxWorld) {
  if (!maintenanceContext(this).systemActionAccepted) return;
  if (this.opened?.target.kind !== 'remote' || this.control) return;
  const token = await clientToken(this);
  if (token === undefined) return;
  await holdsWithin(GOING_DOWN_MS, async () => !(await commandListAnswers(this, token)));
  const back = await holdsWithin(COMING_BACK_MS, () => commandListAnswers(this, token));
  if (!back)
    throw new Error(`the PBX did not answer again within ${COMING_BACK_MS / 60_000} min of a system action`);
});
