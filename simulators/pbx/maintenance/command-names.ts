/**
 * The 14 commands of interface A, in the order `GET /system-functions` lists them
 * (MAINT-COMMAND-NAMES). Names are matched exactly, case-sensitively (MAINT-UNSPEC-NAME-MATCHING).
 */
export const COMMAND_NAMES = [
  'RunAutoCleanup',
  'DeleteSystemMessages',
  'DeleteLogs',
  'DeleteTemporaryFiles',
  'DeleteRecordings',
  'DeleteFaxes',
  'DeleteCallData',
  'DeleteFirmware',
  'DeleteBackups',
  'ReRegisterTrunks',
  'HangupAllCalls',
  'ProvisionDevices',
  'RestartPbx',
  'UpdatePbx',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** The system actions: they send no completion event (MAINT-EXEC-NO-EVENT-SYSTEM-ACTIONS). */
export const SYSTEM_ACTIONS = ['RestartPbx', 'UpdatePbx'] as const satisfies readonly CommandName[];

export type SystemActionName = (typeof SYSTEM_ACTIONS)[number];

/** Every command that is not a system action: it reports completion (MAINT-EXEC-COMPLETION-EVENT). */
export type MaintenanceActionName = Exclude<CommandName, SystemActionName>;

export function isCommandName(value: string): value is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(value);
}

export function isSystemAction(name: CommandName): name is SystemActionName {
  return (SYSTEM_ACTIONS as readonly string[]).includes(name);
}
