import type { PbxState } from '../state/types.ts';
import type { MaintenanceActionName } from './command-names.ts';
import {
  type AutoCleanupMode,
  PROVISIONING_TYPES_WITH_PHONES,
  type UsableParameters,
} from './parameter-rules.ts';

/** The `result` of a completion event: what the action changed (docs/maintenance-api.md). */
export type ActionResult = Record<string, unknown>;

/** Deleted files free space on the root disk (the `df` section and disk checks see it). */
function freeDisk(state: PbxState, bytes: number): void {
  const os = state.os;
  if (bytes <= 0 || os.diskRootFreeBytes < 0 || os.diskRootTotalBytes < 0) return;
  os.diskRootFreeBytes = Math.min(os.diskRootTotalBytes, os.diskRootFreeBytes + bytes);
}

/** Sets a counter to 0 and returns what it held (a `-1` "unknown" counter stays and counts 0). */
function clear<K extends string>(holder: Record<K, number>, key: K): number {
  const held = holder[key];
  if (held <= 0) return 0;
  holder[key] = 0;
  return held;
}

function deleteSystemMessages(state: PbxState): ActionResult {
  return { deleted: { systemMessages: clear(state.system, 'systemMessages') } };
}

/** `DeleteLogs` runs with the `scope` given, `all` when absent (MAINT-PARAM-SCOPE). */
function deleteLogs(state: PbxState, scope: NonNullable<UsableParameters['scope']>): ActionResult {
  const system = state.system;
  const total = Math.max(0, system.logBytes);
  const support = Math.min(total, Math.max(0, system.supportLogBytes));
  const removed = scope === 'all' ? total : scope === 'support' ? support : total - support;
  if (system.logBytes >= 0) system.logBytes = total - removed;
  if (scope !== 'pbx') system.supportLogBytes = 0;
  else system.supportLogBytes = support;
  freeDisk(state, removed);
  return { scope, deleted: { logBytes: removed } };
}

function deleteFileCounter(
  state: PbxState,
  key: 'tempFileBytes' | 'recordingBytes' | 'firmwareBytes',
): ActionResult {
  const removed = clear(state.system, key);
  freeDisk(state, removed);
  return { deleted: { [key]: removed } };
}

function deleteFaxes(state: PbxState): ActionResult {
  return { deleted: { faxes: clear(state.system, 'faxes') } };
}

/**
 * Call data lives in the database: the CDR part shrinks to 0 and the database with it. Runs only
 * with `confirmed` = `true` (MAINT-PARAM-CONFIRMED, checked in `checkParameters`).
 */
function deleteCallData(state: PbxState): ActionResult {
  const removed = clear(state.database, 'cdrSize');
  if (state.database.databaseSize > 0)
    state.database.databaseSize = Math.max(0, state.database.databaseSize - removed);
  return { deleted: { cdrBytes: removed } };
}

/** Every target loses its runs and its content; local (`HDD`) targets free the root disk. */
function deleteBackups(state: PbxState): ActionResult {
  let bytes = 0;
  let runs = 0;
  for (const backup of state.backups) {
    const held = Math.max(0, backup.sizeBytes);
    bytes += held;
    runs += backup.runs.length;
    if (backup.type === 'HDD') freeDisk(state, held);
    backup.runs = [];
    backup.sizeBytes = 0;
    backup.message = 'Backups deleted';
  }
  return { targets: state.backups.length, deleted: { backupBytes: bytes, backupRuns: runs } };
}

function reRegisterTrunks(state: PbxState): ActionResult {
  const wereUnregistered = state.sipProviders.filter((p) => !p.registered).length;
  for (const provider of state.sipProviders) provider.registered = true;
  return { trunks: state.sipProviders.length, newlyRegistered: wereUnregistered };
}

/** Ends every call: active channels, linked/parked/conference calls and RTP channels go to 0. */
export function hangupAllCalls(state: PbxState): ActionResult {
  const channels = state.channels.active.length;
  state.channels.active = [];
  state.traffic.linkedCalls = 0;
  state.traffic.parkedCalls = 0;
  state.traffic.conferenceCalls = 0;
  state.rtp.activeChannels = 0;
  return { hungUpChannels: channels };
}

/** `ProvisionDevices` runs for the `type` given; a missing `type` never gets here (MAINT-PARAM-TYPE). */
function provisionDevices(state: PbxState, type: string): ActionResult {
  const sip = state.sip;
  const selects = (PROVISIONING_TYPES_WITH_PHONES as readonly string[]).includes(type);
  const phones = selects ? Math.max(0, sip.knownPhones) : 0;
  if (selects) sip.provisionedPhones = phones;
  return { type, provisionedPhones: phones };
}

/**
 * `standard`: system messages, temporary files, all logs, firmware files. `full`: also faxes and
 * recordings. Backups and call data are never part of the cleanup.
 */
function runAutoCleanup(state: PbxState, mode: AutoCleanupMode): ActionResult {
  const deleted: Record<string, unknown> = {
    ...(deleteSystemMessages(state)['deleted'] as object),
    ...(deleteFileCounter(state, 'tempFileBytes')['deleted'] as object),
    ...(deleteLogs(state, 'all')['deleted'] as object),
    ...(deleteFileCounter(state, 'firmwareBytes')['deleted'] as object),
  };
  if (mode === 'full') {
    Object.assign(
      deleted,
      deleteFaxes(state)['deleted'],
      deleteFileCounter(state, 'recordingBytes')['deleted'],
    );
  }
  return { mode, deleted };
}

/**
 * Applies one maintenance action to the state and returns its completion result
 * (MAINT-EXEC-COMPLETION-EVENT; the effects are listed in docs/maintenance-api.md). The
 * parameters have been checked (`checkParameters`). `startTime`/`endTime` are taken and reported
 * in the event as given; the simulator keeps totals, not dated items, so they do not narrow what
 * is deleted (MAINT-PARAM-TIMES-AS-NUMBERS).
 */
export function runMaintenanceAction(
  state: PbxState,
  command: MaintenanceActionName,
  parameters: UsableParameters,
): ActionResult {
  switch (command) {
    case 'RunAutoCleanup':
      return runAutoCleanup(state, (parameters.mode ?? 'standard') as AutoCleanupMode);
    case 'DeleteSystemMessages':
      return deleteSystemMessages(state);
    case 'DeleteLogs':
      return deleteLogs(state, parameters.scope ?? 'all');
    case 'DeleteTemporaryFiles':
      return deleteFileCounter(state, 'tempFileBytes');
    case 'DeleteRecordings':
      return deleteFileCounter(state, 'recordingBytes');
    case 'DeleteFaxes':
      return deleteFaxes(state);
    case 'DeleteCallData':
      return deleteCallData(state);
    case 'DeleteFirmware':
      return deleteFileCounter(state, 'firmwareBytes');
    case 'DeleteBackups':
      return deleteBackups(state);
    case 'ReRegisterTrunks':
      return reRegisterTrunks(state);
    case 'HangupAllCalls':
      return hangupAllCalls(state);
    case 'ProvisionDevices':
      return provisionDevices(state, parameters.type ?? '');
  }
}
