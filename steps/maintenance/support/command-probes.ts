import { activeChannels, sipTrunks } from '../../support/fixtures.ts';
import type { ControlState } from '../../support/with-control.ts';

/**
 * What a command acts on, read from the PBX state through the control plane: a state overlay that
 * gives the command something to do and a reading of what it would change. Used to show that a
 * discarded, refused or unlicensed command changed nothing (MAINT-DISCARD-CALLDATA-UNCONFIRMED,
 * MAINT-DISCARD-PROVISION-NO-TYPE, MAINT-DISCARD-INVALID-MODE, MAINT-POST-INVALID-JSON-REQUIRED,
 * MAINT-LICENCE-NEEDED-TO-EXECUTE, MAINT-AUTH-401-NOT-EXECUTED) and that an executed one acted.
 * The values are the control plane's state model; which value a command changes follows
 * docs/maintenance-api.md ("Commands and their effects").
 */
export interface CommandProbe {
  /** In words, for failure messages. */
  what: string;
  prepare(state: ControlState): Record<string, unknown>;
  read(state: ControlState): unknown;
}

/** A version that is offered but not installed, so `UpdatePbx` has something to install. */
export const OFFERED_VERSION = '12.9.9.9';

export const COMMAND_PROBES: Readonly<Record<string, CommandProbe>> = {
  RunAutoCleanup: {
    what: 'the system messages and temporary files',
    prepare: () => ({ system: { systemMessages: 97, tempFileBytes: 7_340_032 } }),
    read: (s) => [s.system.systemMessages, s.system.tempFileBytes],
  },
  DeleteSystemMessages: {
    what: 'the system messages',
    prepare: () => ({ system: { systemMessages: 97 } }),
    read: (s) => s.system.systemMessages,
  },
  DeleteLogs: {
    what: 'the log size',
    prepare: () => ({ system: { logBytes: 52_428_800, supportLogBytes: 10_485_760 } }),
    read: (s) => s.system.logBytes,
  },
  DeleteTemporaryFiles: {
    what: 'the temporary files',
    prepare: () => ({ system: { tempFileBytes: 7_340_032 } }),
    read: (s) => s.system.tempFileBytes,
  },
  DeleteRecordings: {
    what: 'the recordings',
    prepare: () => ({ system: { recordingBytes: 31_457_280 } }),
    read: (s) => s.system.recordingBytes,
  },
  DeleteFaxes: {
    what: 'the faxes',
    prepare: () => ({ system: { faxes: 23 } }),
    read: (s) => s.system.faxes,
  },
  DeleteCallData: {
    what: 'the call data',
    prepare: (s) => ({
      database: { cdrSize: 805_306_369, databaseSize: s.database.databaseSize + 805_306_369 },
    }),
    read: (s) => s.database.cdrSize,
  },
  DeleteFirmware: {
    what: 'the firmware files',
    prepare: () => ({ system: { firmwareBytes: 94_371_840 } }),
    read: (s) => s.system.firmwareBytes,
  },
  DeleteBackups: {
    what: 'the backup runs',
    prepare: () => ({}),
    read: (s) => s.backups.map((b) => b.runs.length),
  },
  ReRegisterTrunks: {
    what: 'the trunk registrations',
    prepare: () => ({ sipProviders: sipTrunks([false, true, false]) }),
    read: (s) => s.sipProviders.map((p) => p.registered),
  },
  HangupAllCalls: {
    what: 'the active channels',
    prepare: () => ({ channels: { active: activeChannels(4) } }),
    read: (s) => s.channels.active.length,
  },
  ProvisionDevices: {
    what: 'the provisioned phones',
    prepare: (s) => ({ sip: { provisionedPhones: Math.max(0, s.sip.knownPhones - 40) } }),
    read: (s) => s.sip.provisionedPhones,
  },
  RestartPbx: {
    what: 'the restart state and the uptime',
    prepare: () => ({}),
    read: (s) => [s.maintenance.restartingUntil, s.appliance.uptimeLinuxMs],
  },
  UpdatePbx: {
    what: 'the installed PBX version',
    prepare: (s) => ({
      update: {
        latestVersion: OFFERED_VERSION,
        availableVersions: [...new Set([...s.update.availableVersions, OFFERED_VERSION])],
      },
    }),
    read: (s) => s.appliance.pbxVersion,
  },
};

export function probeFor(command: string): CommandProbe {
  const probe = COMMAND_PROBES[command];
  if (!probe) throw new Error(`no probe for the command "${command}"`);
  return probe;
}
