import type { CommandName } from './command-names.ts';

/** The parameters interface A knows (spec table "Command parameters seen in the interface"). */
export const PARAMETER_NAMES = [
  'trigger',
  'scope',
  'version',
  'executeAt',
  'confirmed',
  'type',
  'mode',
  'startTime',
  'endTime',
] as const;

export type ParameterName = (typeof PARAMETER_NAMES)[number];

/**
 * The parameters each command reads besides `trigger` (MAINT-UNSPEC-COMMAND-PARAMETERS: the
 * simulator's list, docs/maintenance-api.md). Any other field, even one that another command reads,
 * is unknown to the command and ignored (MAINT-POST-UNKNOWN-FIELDS).
 */
export const COMMAND_PARAMETERS: Readonly<Record<CommandName, readonly Exclude<ParameterName, 'trigger'>[]>> =
  {
    RunAutoCleanup: ['mode'],
    DeleteSystemMessages: ['startTime', 'endTime'],
    DeleteLogs: ['scope', 'startTime', 'endTime'],
    DeleteTemporaryFiles: [],
    DeleteRecordings: ['startTime', 'endTime'],
    DeleteFaxes: ['startTime', 'endTime'],
    DeleteCallData: ['confirmed', 'startTime', 'endTime'],
    DeleteFirmware: [],
    DeleteBackups: [],
    ReRegisterTrunks: [],
    HangupAllCalls: [],
    ProvisionDevices: ['type'],
    RestartPbx: [],
    UpdatePbx: ['version', 'executeAt', 'mode'],
  };

/**
 * What the executor receives: `trigger` forced to `API` (MAINT-TRIGGER-SET-TO-API) and the
 * command's own parameters as the client sent them, not yet type-checked (the executor discards
 * a command whose parameters are unusable, MAINT-UNSPEC-WRONG-TYPES).
 */
export type CommandParameters = { trigger: 'API' } & { [K in Exclude<ParameterName, 'trigger'>]?: unknown };

/**
 * How the request body was read:
 * - `empty`: no bytes, or only whitespace (MAINT-POST-EMPTY-BODY);
 * - `object`: a JSON object;
 * - `invalid-json`: not UTF-8 or not JSON; dropped, the command runs without parameters
 *   (MAINT-POST-INVALID-JSON-NO-PARAMS);
 * - `non-object`: valid JSON but an array, string, number, boolean or `null`; treated exactly like
 *   invalid JSON (MAINT-UNSPEC-NON-OBJECT-BODY).
 */
export type BodyKind = 'empty' | 'object' | 'invalid-json' | 'non-object';

export interface ParsedBody {
  kind: BodyKind;
  /** The JSON object when `kind` is `object`, else `null`. */
  fields: Record<string, unknown> | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a POST body (at most 1 MiB, checked before) leniently: it never throws. */
export function parseCommandBody(body: Uint8Array): ParsedBody {
  if (body.length === 0) return { kind: 'empty', fields: null };
  let value: unknown;
  try {
    const text = utf8.decode(body);
    if (text.trim() === '') return { kind: 'empty', fields: null };
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid-json', fields: null };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'non-object', fields: null };
  return { kind: 'object', fields: value as Record<string, unknown> };
}

/**
 * The parameters the executor sees for `command`: the command's own fields from the body (a
 * `null` value counts as absent), unknown fields dropped, and `trigger` set to `API` whatever
 * the client sent (MAINT-TRIGGER-SET-TO-API, MAINT-POST-UNKNOWN-FIELDS).
 */
export function commandParameters(
  command: CommandName,
  fields: Record<string, unknown> | null,
): CommandParameters {
  const parameters: CommandParameters = { trigger: 'API' };
  if (!fields) return parameters;
  for (const name of COMMAND_PARAMETERS[command]) {
    if (!Object.hasOwn(fields, name)) continue;
    const value = fields[name];
    if (value !== null && value !== undefined) parameters[name] = value;
  }
  return parameters;
}
