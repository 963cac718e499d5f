import type { CreatedToken, PbxControl } from '../../../simulators/pbx/index.ts';
import type { MaintenanceTarget } from '../../support/target.ts';
import type { PbxWorld } from '../../support/world.ts';
import { maintenanceContext } from './maintenance-context.ts';

/** Both control planes a maintenance step may need: the PBX's and its interface-A part. */
export interface MaintenanceControls {
  control: PbxControl;
  /** The same PBX control plane: its interface-A operations (tokens, completion events). */
  maintenance: PbxControl;
  /**
   * The embedded simulator: a drained executor has recorded every completion event it will
   * record, on a frozen clock (negative checks look once instead of watching in real time).
   */
  drainedMeansSettled?: boolean;
}

/** Interface A of the target, or `undefined` when the target file does not describe it. */
export function maintenanceTarget(world: PbxWorld): MaintenanceTarget | undefined {
  return world.pbx.maintenance;
}

export function noApiReason(world: PbxWorld): string {
  return `target "${world.target.name}" has no "maintenance" section describing interface A`;
}

/**
 * Runs `action` with both control planes; on a target without them reports the step as not
 * verifiable (never failed) and returns `'skipped'` for the step to return.
 */
export async function withMaintenanceControl(
  world: PbxWorld,
  purpose: string,
  action: (controls: MaintenanceControls) => Promise<unknown>,
): Promise<'skipped' | undefined> {
  const target = maintenanceTarget(world);
  if (!target) return world.notVerifiable(noApiReason(world));
  const control = world.control;
  if (!control || !target.control) return world.notVerifiable(world.noControlReason(purpose));
  await action({
    control,
    maintenance: target.control,
    drainedMeansSettled: world.target.kind === 'embedded',
  });
  return undefined;
}

/** Logins of a PBX user with and without the administration right (MAINT-TOKEN-ADMIN-RIGHT). */
export async function pbxUsers(control: PbxControl): Promise<{ admin: string; nonAdmin?: string }> {
  const { users } = await control.getState();
  const admin = users.find((user) => user.admin)?.login;
  if (admin === undefined) throw new Error('the PBX has no user with the administration right');
  const nonAdmin = users.find((user) => !user.admin)?.login;
  return nonAdmin === undefined ? { admin } : { admin, nonAdmin };
}

/**
 * Creates a token as an administrator and makes it the one "the API client" sends from now on.
 * Labels and expiries are passed as given, so steps can also try invalid ones.
 */
export async function createTokenAsAdmin(
  controls: MaintenanceControls,
  world: PbxWorld,
  request: { label?: unknown; expiresAt?: number | null },
): Promise<CreatedToken> {
  const { admin } = await pbxUsers(controls.control);
  const created = await controls.maintenance.createToken({ ...(request as { label: string }), actor: admin });
  const context = maintenanceContext(world);
  context.created.push(created);
  context.token = created.secret;
  return created;
}

/**
 * The token "the API client" sends: the scenario's current one; else a new one made through the
 * control plane; else the target file's. `undefined` when the target offers none of these (the
 * step then reports not verifiable).
 */
export async function clientToken(world: PbxWorld): Promise<string | undefined> {
  const context = maintenanceContext(world);
  if (context.token !== undefined) return context.token;
  const target = maintenanceTarget(world);
  if (!target) return undefined;
  if (target.control && world.control) {
    const created = await createTokenAsAdmin({ control: world.control, maintenance: target.control }, world, {
      label: 'conformance harness',
    });
    return created.secret;
  }
  if (target.token !== undefined) context.token = target.token;
  return target.token;
}

export function noTokenReason(world: PbxWorld): string {
  return maintenanceTarget(world)
    ? `target "${world.target.name}" offers no valid API token: give maintenance.token or a control plane`
    : noApiReason(world);
}
