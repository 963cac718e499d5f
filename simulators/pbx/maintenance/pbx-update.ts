import type { PbxState, ScheduledUpdate } from '../state/types.ts';

export const NO_SCHEDULED_UPDATE: Readonly<ScheduledUpdate> = Object.freeze({
  version: '',
  executeAt: '',
  dueAt: 0,
});

/** Whether `UpdatePbx` may install this version (MAINT-UNSPEC-PARAMETER-VALUES: exact match). */
export function isVersionAvailable(state: Readonly<PbxState>, version: string): boolean {
  return state.update.availableVersions.includes(version);
}

/**
 * Installs `version` now: the PBX version changes; when it is the latest one, no update is
 * offered any more. The simulator does not restart the PBX for an update.
 */
export function installUpdate(
  state: PbxState,
  version: string,
): { installed: string; previousVersion: string } {
  const previousVersion = state.appliance.pbxVersion;
  state.appliance.pbxVersion = version;
  if (version === state.update.latestVersion) state.update.kind = 'none';
  return { installed: version, previousVersion };
}

export function hasScheduledUpdate(state: Readonly<PbxState>): boolean {
  return state.maintenance.scheduledUpdate.version !== '';
}

/** Removes the pending scheduled update; returns it, or `null` when none was pending. */
export function takeScheduledUpdate(state: PbxState): ScheduledUpdate | null {
  if (!hasScheduledUpdate(state)) return null;
  const pending = { ...state.maintenance.scheduledUpdate };
  state.maintenance.scheduledUpdate = { ...NO_SCHEDULED_UPDATE };
  return pending;
}
