import type { CommandName } from './command-names.ts';
import type { CommandParameters } from './command-parameters.ts';
import type { DiscardReason } from './discard-reason.ts';
import { parseExecuteAt } from './execute-at.ts';

/** Values of `scope` for `DeleteLogs`; `all` when absent (MAINT-UNSPEC-PARAMETER-VALUES). */
export const LOG_SCOPES = ['all', 'pbx', 'support'] as const;
export type LogScope = (typeof LOG_SCOPES)[number];

/**
 * Values of `mode` per command, the first being the default when `mode` is absent
 * (MAINT-UNSPEC-PARAMETER-VALUES). Commands not listed take no `mode`: for them it is an unknown
 * field and ignored.
 */
export const COMMAND_MODES = {
  RunAutoCleanup: ['standard', 'full'],
  UpdatePbx: ['install', 'cancel'],
} as const satisfies Partial<Record<CommandName, readonly string[]>>;

export type AutoCleanupMode = (typeof COMMAND_MODES.RunAutoCleanup)[number];
export type UpdateMode = (typeof COMMAND_MODES.UpdatePbx)[number];

/** Device types that select the simulator's phones (all of them are SIP desk phones). */
export const PROVISIONING_TYPES_WITH_PHONES = ['all', 'sip'] as const;

/** Longest `type` of `ProvisionDevices` taken (a bound so a 1 MiB string never reaches an event). */
export const MAX_TYPE_LENGTH = 64;

/** Parameters after their checks, with their JSON types. */
export interface UsableParameters {
  scope?: LogScope;
  version?: string;
  executeAt?: { text: string; fields: [number, number, number, number, number] };
  confirmed?: boolean;
  type?: string;
  mode?: string;
  startTime?: number;
  endTime?: number;
}

export type ParameterCheck =
  | { usable: true; parameters: UsableParameters }
  | { usable: false; reason: DiscardReason; parameter?: string };

const refuse = (reason: DiscardReason, parameter?: string): ParameterCheck =>
  parameter === undefined ? { usable: false, reason } : { usable: false, reason, parameter };

/**
 * Checks a command's parameters before it runs. Unusable parameters discard the command
 * silently: a known parameter of the wrong JSON type (`"true"` for a boolean,
 * a string `startTime`, MAINT-UNSPEC-WRONG-TYPES, MAINT-PARAM-TIMES-AS-NUMBERS), a missing
 * required one (MAINT-DISCARD-CALLDATA-UNCONFIRMED, MAINT-DISCARD-PROVISION-NO-TYPE) or a value
 * outside its set (MAINT-DISCARD-INVALID-MODE). Version availability needs the state and is
 * checked by the executor (MAINT-DISCARD-UNAVAILABLE-VERSION). A syntactically invalid JSON body
 * reaches here without parameters, so `DeleteCallData` and `ProvisionDevices` are discarded for
 * their missing required one (MAINT-POST-INVALID-JSON-REQUIRED). The types taken: `scope`,
 * `version` and `type` strings, `confirmed` a native JSON boolean (MAINT-PARAM-SCOPE,
 * MAINT-PARAM-VERSION, MAINT-PARAM-TYPE, MAINT-PARAM-CONFIRMED).
 */
export function checkParameters(command: CommandName, raw: CommandParameters): ParameterCheck {
  const usable: UsableParameters = {};
  for (const name of ['startTime', 'endTime'] as const) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return refuse('wrong-type', name);
    usable[name] = value;
  }
  // MAINT-PARAM-CONFIRMED: a native boolean; `"true"` is the wrong type.
  if (raw.confirmed !== undefined) {
    if (typeof raw.confirmed !== 'boolean') return refuse('wrong-type', 'confirmed');
    usable.confirmed = raw.confirmed;
  }
  // MAINT-PARAM-VERSION: the target version, a string.
  if (raw.version !== undefined) {
    if (typeof raw.version !== 'string') return refuse('wrong-type', 'version');
    usable.version = raw.version;
  }
  if (raw.executeAt !== undefined) {
    const fields = typeof raw.executeAt === 'string' ? parseExecuteAt(raw.executeAt) : null;
    if (!fields) return refuse('invalid-execute-at', 'executeAt');
    usable.executeAt = { text: raw.executeAt as string, fields };
  }
  // MAINT-PARAM-SCOPE: a string, kept as given for `DeleteLogs`.
  if (raw.scope !== undefined) {
    if (typeof raw.scope !== 'string' || !(LOG_SCOPES as readonly string[]).includes(raw.scope)) {
      return refuse('invalid-scope', 'scope');
    }
    usable.scope = raw.scope as LogScope;
  } else if (command === 'DeleteLogs') {
    usable.scope = 'all';
  }
  if (command === 'RunAutoCleanup' || command === 'UpdatePbx') {
    const modes: readonly string[] = COMMAND_MODES[command];
    const mode = raw.mode ?? modes[0];
    if (typeof mode !== 'string' || !modes.includes(mode)) return refuse('invalid-mode', 'mode');
    usable.mode = mode;
  }
  // MAINT-PARAM-TYPE: a string, required by `ProvisionDevices` (below).
  if (raw.type !== undefined) {
    if (typeof raw.type !== 'string') return refuse('wrong-type', 'type');
    if (raw.type.length > MAX_TYPE_LENGTH) return refuse('invalid-type', 'type');
    if (raw.type !== '') usable.type = raw.type;
  }
  // MAINT-DISCARD-CALLDATA-UNCONFIRMED, MAINT-DISCARD-PROVISION-NO-TYPE: a required one missing.
  if (command === 'DeleteCallData' && usable.confirmed !== true) return refuse('not-confirmed', 'confirmed');
  if (command === 'ProvisionDevices' && usable.type === undefined) return refuse('type-missing', 'type');
  return { usable: true, parameters: usable };
}
