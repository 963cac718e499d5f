import * as fc from 'fast-check';

/** The 14 command names of the spec (MAINT-COMMAND-NAMES), spelled exactly. */
export const SPEC_COMMAND_NAMES = [
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

/** Commands that need no parameter and act on housekeeping only: safe to post many times. */
export const HOUSEKEEPING_COMMANDS = [
  'DeleteSystemMessages',
  'DeleteLogs',
  'DeleteTemporaryFiles',
  'DeleteRecordings',
  'DeleteFaxes',
  'DeleteFirmware',
  'DeleteBackups',
  'ReRegisterTrunks',
  'HangupAllCalls',
] as const;

/** The parameters the spec's table names ("Command parameters seen in the interface"). */
export const SPEC_PARAMETER_NAMES = [
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

const lowerCommandNames = new Set(SPEC_COMMAND_NAMES.map((name) => name.toLowerCase()));
const lowerParameterNames = new Set<string>(SPEC_PARAMETER_NAMES.map((name) => name.toLowerCase()));

/** Tokens that were never issued: 43-character Base64url texts like real secrets, or other token68 texts. */
export const neverIssuedToken: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,120}$/),
);

const pathSegment = fc.stringMatching(/^[a-z0-9_-]{1,16}$/);

/**
 * Paths below the API base that name no endpoint: one to three segments whose first is neither
 * `system-functions` in any letter case nor `v1` (MAINT-UNSPEC-NAME-MATCHING,
 * MAINT-UNSPEC-PATH-V1 leave those open). No trailing slash, no query, no percent-encoding.
 */
export const unknownApiPath: fc.Arbitrary<string> = fc
  .array(pathSegment, { minLength: 1, maxLength: 3 })
  .filter((segments) => segments[0] !== 'system-functions' && segments[0] !== 'v1')
  .map((segments) => `/${segments.join('/')}`);

/** Command names that are not in the list in any letter case (MAINT-UNSPEC-NAME-MATCHING). */
export const unknownCommandName: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9]{0,31}$/)
  .filter((name) => !lowerCommandNames.has(name.toLowerCase()));

/** A known path with a method it does not take (MAINT-ERR-404-WRONG-METHOD); HEAD is left out: it has no body. */
export const wrongMethodRequest: fc.Arbitrary<{ method: string; path: string }> = fc.oneof(
  fc.record({
    method: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH'),
    path: fc.constant('/system-functions'),
  }),
  fc.record({
    method: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'),
    path: fc.constantFrom(...SPEC_COMMAND_NAMES).map((name) => `/system-functions/${name}`),
  }),
);

function isInvalidJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** Syntactically invalid JSON texts: cut-off objects, stray text, JSON with a fault added. */
export const invalidJsonText: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .record({
        value: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
        cut: fc.nat(),
      })
      .map(({ value, cut }) => {
        const text = JSON.stringify(value);
        return text.slice(0, Math.max(1, cut % text.length));
      }),
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.jsonValue({ maxDepth: 2 }).map((value) => `${JSON.stringify(value)},`),
    fc.constantFrom('{', '{"confirmed": true', "{'type': 'sip'}", '{"mode": full}', 'undefined', '{"a":1}}'),
  )
  .filter(isInvalidJson);

/** Field names the spec's parameter table does not name, in any letter case. */
export const unknownFieldName: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,19}$/)
  .filter((name) => !lowerParameterNames.has(name.toLowerCase()) && name !== '__proto__');

/** One to five unknown fields with any JSON values. */
export const unknownFields: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  unknownFieldName,
  fc.jsonValue({ maxDepth: 2 }),
  { minKeys: 1, maxKeys: 5 },
);

/**
 * What a client might send as `trigger`: any text, including `API` itself. Only strings: how a
 * parameter of the wrong JSON type is handled is not stated (MAINT-UNSPEC-WRONG-TYPES).
 */
export const clientTrigger: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('ERP', 'RMM', 'api', 'UI', 'API', ''),
  fc.string({ maxLength: 40 }),
);

/** Milliseconds since 1970 between 1970 and 2100, as JSON numbers. */
export const epochMs: fc.Arbitrary<number> = fc.integer({ min: 0, max: 4_102_444_800_000 });

/** `yyyy-mm-ddThh:mm` of an instant, read in UTC. */
export function localDateTime(epoch: number): string {
  return new Date(epoch).toISOString().slice(0, 16);
}
