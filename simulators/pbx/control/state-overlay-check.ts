import { deepMerge, UnknownFieldError } from '../../shared/deep-merge.ts';
import { describeValue, isPlainObject, requireOneOf } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { agentExtensionProblems } from '../snapshot/render/agent-extensions.ts';
import { defaultState } from '../state/default-state.ts';
import {
  type AgentExtensions,
  KEY_VALUE_SECTIONS,
  type KeyValueSection,
  type PbxState,
  type RaidState,
} from '../state/types.ts';
import {
  checkCacheLifetime,
  checkDefaultFormat,
  checkInstanceName,
  checkListenHost,
  checkMonitoringHosts,
  checkPort,
  checkRawGrace,
} from './monitoring-input.ts';

/** The default state has no RAID; this is the shape a `raid` overlay must have. */
const RAID_TEMPLATE: RaidState = {
  level: 'raid1',
  status: 'clean',
  devices: [{ name: 'sda', state: 'active' }],
  controllerTable: ['Unit  UnitType  Status'],
};

/** The default has no extensions; this is the element shape of each of their lists. */
const EXTENSIONS_TEMPLATE: AgentExtensions = {
  sections: [{ name: 'vendor_extra', lines: ['line'] }],
  extraLines: Object.fromEntries(KEY_VALUE_SECTIONS.map((name) => [name, ['vendor_key value']])) as Record<
    KeyValueSection,
    string[]
  >,
};

/**
 * Fields a complete element or object may leave out (optional in types.ts): the peer listing's
 * details and the verbatim RAID controller table have defaults.
 */
const OPTIONAL = new Set([
  'peers[].port',
  'peers[].dynamic',
  'peers[].nat',
  'peers[].acl',
  'raid.controllerTable',
]);

/**
 * The shape every overlay is checked against: the default state (all of its arrays have at least
 * one element, which serves as the element template) with the nullable fields filled in.
 */
const TEMPLATE: PbxState = {
  ...defaultState(0),
  raid: RAID_TEMPLATE,
  peers: [{ ...defaultState(0).peers[0]!, port: 5060, dynamic: true, nat: false, acl: false }],
  agentExtensions: EXTENSIONS_TEMPLATE,
};

/** Fields whose type allows `null` (types.ts). */
const NULLABLE = new Set(['raid']);

const STATUS_VALUES = [0, 1, 2];

function checkStatus(value: unknown, field: string): void {
  if (typeof value !== 'number' || !STATUS_VALUES.includes(value)) {
    throw new ControlInputError(`${field} must be 0, 1 or 2, got ${describeValue(value)}`);
  }
}

/** Value rules of state fields, keyed by path with `[]` for array elements; each throws `ControlInputError`. */
export type OverlayRules = Readonly<Record<string, (value: unknown, field: string) => unknown>>;

/**
 * Value rules beyond the JSON type, keyed by path with `[]` for array elements. A rule replaces
 * the structural check of its field. They are the same checks as the dedicated operations, so
 * `PATCH /state` cannot put into the state what `PUT /monitoring/port` would refuse.
 */
const FIELD_RULES: OverlayRules = {
  'monitoring.port': checkPort,
  'monitoring.host': checkListenHost,
  'monitoring.hosts': checkMonitoringHosts,
  'monitoring.cacheLifetimeMs': checkCacheLifetime,
  'monitoring.rawGraceMs': checkRawGrace,
  'monitoring.instanceName': checkInstanceName,
  'monitoring.defaultFormat': checkDefaultFormat,
  'update.kind': (value, field) => requireOneOf(value, field, ['none', 'major', 'minor']),
  'os.linuxSectionsSource': (value, field) => requireOneOf(value, field, ['host', 'synthetic']),
  'modules[].instances[].status': checkStatus,
  'system.logStatus.status': checkStatus,
  'users[].passwordSha512': (value, field) => {
    if (typeof value !== 'string' || !/^[0-9a-f]{128}$/.test(value)) {
      throw new ControlInputError(`${field} must be 128 lowercase hex digits (SHA-512)`);
    }
  },
};

/**
 * Checks a deep-partial state overlay (`PATCH /state`, the `patchState` operation) before it is
 * merged: unknown fields throw `UnknownFieldError`; wrong JSON types, `null` where the state does
 * not allow it and out-of-range settings throw `ControlInputError`. Arrays replace, so each
 * element must be complete; an object that replaces `null` (e.g. `raid`) must be complete too.
 * `faceRules` are the rules of fields a face owns (the resolver's settings and providers), given by
 * the PBX's assembly so that control/ imports no other face.
 */
export function checkStateOverlay(
  current: Readonly<PbxState>,
  overlay: unknown,
  faceRules: OverlayRules = {},
): void {
  if (!isPlainObject(overlay))
    throw new ControlInputError(`the state overlay must be a JSON object, got ${describeValue(overlay)}`);
  checkNode(TEMPLATE, current, overlay, '', '', false, { ...FIELD_RULES, ...faceRules });
  if ('agentExtensions' in overlay) {
    const merged = deepMerge(current.agentExtensions, overlay['agentExtensions']);
    const problems = agentExtensionProblems(merged);
    if (problems.length > 0) throw new ControlInputError(problems.slice(0, 3).join('; '));
  }
}

function checkNode(
  template: unknown,
  current: unknown,
  value: unknown,
  field: string,
  rulePath: string,
  complete: boolean,
  rules: OverlayRules,
): void {
  const rule = rules[rulePath];
  if (rule) {
    rule(value, field);
    return;
  }
  if (value === null) {
    if (NULLABLE.has(rulePath)) return;
    throw new ControlInputError(`${field} cannot be null`);
  }
  if (Array.isArray(template)) {
    if (!Array.isArray(value))
      throw new ControlInputError(`${field} must be an array, got ${describeValue(value)}`);
    value.forEach((item, index) => {
      checkNode(template[0], undefined, item, `${field}[${index}]`, `${rulePath}[]`, true, rules);
    });
    return;
  }
  if (isPlainObject(template)) {
    if (!isPlainObject(value))
      throw new ControlInputError(`${field} must be a JSON object, got ${describeValue(value)}`);
    const whole = complete || current === null;
    for (const key of Object.keys(value)) {
      if (!(key in template)) throw new UnknownFieldError(field ? `${field}.${key}` : key);
    }
    for (const key of Object.keys(template)) {
      const path = field ? `${field}.${key}` : key;
      if (!(key in value)) {
        if (whole && !OPTIONAL.has(rulePath ? `${rulePath}.${key}` : key))
          throw new ControlInputError(
            `${path} is missing (a replaced array element or object must be complete)`,
          );
        continue;
      }
      const below = isPlainObject(current) ? current[key] : undefined;
      checkNode(template[key], below, value[key], path, rulePath ? `${rulePath}.${key}` : key, whole, rules);
    }
    return;
  }
  if (typeof value !== typeof template || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new ControlInputError(`${field} must be a ${typeof template}, got ${describeValue(value)}`);
  }
}
