import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { deepMerge } from '../shared/deep-merge.ts';
import type { ScenarioInfo } from './control/control-api.ts';
import { agentExtensionProblems } from './snapshot/render/agent-extensions.ts';
import { defaultState } from './state/default-state.ts';
import type { BackupState, ModuleState, PbxState, PeerState, SipProviderState } from './state/types.ts';

const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
const SCHEMA_PATH = fileURLToPath(new URL('../../schemas/pbx-scenario.schema.json', import.meta.url));

/** The shape of a scenario file (schemas/pbx-scenario.schema.json). */
export interface ScenarioFile {
  name: string;
  description: string;
  /** The worst state the MKP's check plug-ins report on its agent text (the description says it too). */
  mkpWorstState?: 'OK' | 'WARN' | 'UNKNOWN' | 'CRIT';
  state?: Record<string, unknown>;
  generate?: GenerateSpec;
}

/** The scenario the simulator starts with when none is named. */
export const DEFAULT_SCENARIO = 'healthy';

let validator: ValidateFunction | undefined;

/**
 * The state for `scenario` at virtual time `now`: a name from simulators/pbx/scenarios/ gives
 * `defaultState(now)` deep-merged with that file's `state` overlay (then its `generate` lists);
 * a complete `PbxState` from code is taken as is (cloned; it is typed already, so not validated).
 * An unknown name or an invalid file throws an `Error` with a one-line message.
 */
export function resolveScenario(scenario: string | PbxState, now: number): PbxState {
  if (typeof scenario !== 'string') return structuredClone(scenario);
  const known = scenarioFiles();
  const path = known.get(scenario);
  if (!path) throw new Error(`unknown scenario '${scenario}' (known: ${[...known.keys()].join(', ')})`);
  const file = readScenario(path);
  if (file.name !== scenario) {
    throw new Error(
      `scenario file ${basename(path)} is invalid: name '${file.name}' must equal the file name`,
    );
  }
  return applyScenario(file, now, basename(path));
}

/** The shipped scenarios, `healthy` first, then by name. */
export function listScenarios(): ScenarioInfo[] {
  return [...scenarioFiles().values()]
    .map((path) => readScenario(path))
    .map(({ name, description }) => ({ name, description }))
    .sort((a, b) =>
      a.name === DEFAULT_SCENARIO ? -1 : b.name === DEFAULT_SCENARIO ? 1 : a.name.localeCompare(b.name),
    );
}

/** The shipped scenario files as written (name, description, `mkpWorstState`, overlay), by name. */
export function listScenarioFiles(): ScenarioFile[] {
  return [...scenarioFiles().values()].map((path) => readScenario(path));
}

/** A user-supplied scenario file (same format as the shipped ones; its name may be anything valid). */
export function loadScenarioFile(path: string, now: number): PbxState {
  return applyScenario(readScenario(path), now, path);
}

/**
 * The state a scenario given as a value gives at `now` (e.g. `record import`'s result): the same
 * schema check and overlay on the default state as a file gets; `label` names it in an error.
 */
export function scenarioState(scenario: unknown, now: number, label = 'scenario'): PbxState {
  return applyScenario(validScenario(scenario, label), now, label);
}

function applyScenario(file: ScenarioFile, now: number, label: string): PbxState {
  try {
    const overlay = prepareOverlay(file.state ?? {}, now);
    const merged = deepMerge(defaultState(now), overlay);
    const state = file.generate ? generateLists(merged, file.generate, now) : merged;
    const problems = agentExtensionProblems(state.agentExtensions);
    if (problems.length > 0) throw new Error(problems.slice(0, 3).join('; '));
    return state;
  } catch (error) {
    throw new Error(`scenario ${label} cannot be applied: ${(error as Error).message}`);
  }
}

/**
 * File conveniences turned into state: clear passwords become `passwordSha512` (lowercase hex
 * SHA-512; the clear text is not kept), and backup runs given as `ageMinutes` get an absolute
 * `time` of `now - ageMinutes` minutes.
 */
function prepareOverlay(overlay: Record<string, unknown>, now: number): Record<string, unknown> {
  const result = structuredClone(overlay);
  if (Array.isArray(result['users'])) {
    result['users'] = (result['users'] as Record<string, unknown>[]).map((user) => {
      const { password, passwordSha512, ...rest } = user;
      const hash = typeof password === 'string' ? sha512Hex(password) : passwordSha512;
      return { login: rest['login'], passwordSha512: hash, admin: rest['admin'] === true };
    });
  }
  if (Array.isArray(result['backups'])) {
    for (const backup of result['backups'] as { runs: Record<string, unknown>[] }[]) {
      backup.runs = backup.runs.map((run) =>
        typeof run['ageMinutes'] === 'number'
          ? { time: now - Math.round(run['ageMinutes'] * 60_000), result: run['result'] }
          : run,
      );
    }
  }
  return result;
}

function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

function readScenario(path: string): ScenarioFile {
  const label = basename(path);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`scenario file ${label} cannot be read: ${oneLine((error as Error).message)}`);
  }
  return validScenario(data, `file ${label}`);
}

function validScenario(data: unknown, label: string): ScenarioFile {
  const validate = scenarioValidator();
  if (!validate(data)) throw new Error(`scenario ${label} is invalid: ${describe(validate.errors ?? [])}`);
  return data as ScenarioFile;
}

function scenarioFiles(): Map<string, string> {
  const files = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.json'));
  return new Map(files.sort().map((f) => [f.slice(0, -'.json'.length), `${SCENARIO_DIR}${f}`]));
}

function scenarioValidator(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));
  }
  return validator;
}

function describe(errors: ErrorObject[]): string {
  const first = errors.slice(0, 3).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params['additionalProperty'])}'` : '';
    return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${extra}`;
  });
  return oneLine(first.join('; ') + (errors.length > 3 ? `; and ${errors.length - 3} more` : ''));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Counts of generated list items in a scenario file's `generate` (large installations). */
export interface GenerateSpec {
  peers?: number;
  modules?: number;
  backups?: number;
  sipProviders?: number;
  activeChannels?: number;
}

/**
 * Replaces the lists named in `spec` with deterministic generated items, so a scenario file for a
 * large installation stays small. The same spec and `now` always give the same state. Peers:
 * every 7th offline, every 11th unmonitored (without latency, as the engine shows it). Backups:
 * the four target types HDD, SMB, SFTP, USB in turn, three runs each, every 13th target's last run
 * failed to mount. Modules: one to three instances each. Channels: every 5th an ISDN channel
 * (`DAHDI/…`), the others SIP.
 */
function generateLists(state: PbxState, spec: GenerateSpec, now: number): PbxState {
  const next = structuredClone(state);
  if (spec.peers !== undefined) next.peers = range(spec.peers).map(generatedPeer);
  if (spec.modules !== undefined) next.modules = range(spec.modules).map(generatedModule);
  if (spec.backups !== undefined) next.backups = range(spec.backups).map((i) => generatedBackup(i, now));
  if (spec.sipProviders !== undefined) next.sipProviders = range(spec.sipProviders).map(generatedProvider);
  if (spec.activeChannels !== undefined) {
    next.channels.active = range(spec.activeChannels).map((i) =>
      i % 5 === 4
        ? `DAHDI/i${1 + (i % 2)}/030${String(5_550_000 + i)}-${(0x100 + i).toString(16)}`
        : `SIP/${i % 3 === 0 ? 'trunk-gen' : String(1000 + i)}-${(0x1000 + i).toString(16).padStart(8, '0')}`,
    );
  }
  if (spec.peers !== undefined) {
    next.sip.knownPhones = next.peers.length;
    next.sip.onlinePhones = next.peers.filter((p) => p.online).length;
  }
  return next;
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

function generatedPeer(i: number): PeerState {
  const online = i % 7 !== 6;
  const monitored = i % 11 !== 10;
  return {
    name: String(1000 + i),
    ipaddr: online
      ? `10.${20 + Math.floor(i / 65_536)}.${Math.floor(i / 256) % 256}.${i % 256}`
      : '(Unspecified)',
    lastms: online && monitored ? 5 + ((i * 37) % 80) : -1,
    monitored,
    online,
    port: online ? 5060 + (i % 3) * 2 : 0,
    dynamic: true,
    nat: i % 4 === 3,
  };
}

function generatedModule(i: number): ModuleState {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return {
    name: `Module${String(i + 1).padStart(3, '0')}`,
    id: `${hex(0x5a000000 + i)}-0000-4000-8000-${hex(i).padStart(12, '0')}`,
    version: `26.${1 + (i % 9)}.${i % 30}`,
    vendor: i % 4 === 0 ? 'Third Party Software Ltd' : 'Simulated Systems GmbH',
    instances: range(1 + (i % 3)).map((k) => ({
      name: `Module${String(i + 1).padStart(3, '0')} Instance ${k + 1}`,
      status: 0,
      statusText: 'running',
    })),
  };
}

function generatedBackup(i: number, now: number): BackupState {
  const types = ['HDD', 'SMB', 'SFTP', 'USB'] as const;
  const type = types[i % types.length] ?? 'HDD';
  const failed = i % 13 === 12;
  const hour = 3_600_000;
  return {
    type,
    location: type === 'HDD' || type === 'USB' ? `/mnt/disk${i}` : `192.0.2.${1 + (i % 250)}:/Backup/${i}`,
    message: failed ? 'Backup failed: target not reachable' : 'Backup completed successfully',
    runs: [
      { time: now - (50 + i) * hour, result: 'de.vendor.backup.successful' },
      { time: now - (26 + i) * hour, result: 'de.vendor.backup.successful' },
      {
        time: now - (2 + (i % 20)) * hour,
        result: failed ? 'de.vendor.backup.mountfail' : 'de.vendor.backup.successful',
      },
    ],
    sizeBytes: 1_000_000_000 + i * 7_340_032,
  };
}

function generatedProvider(i: number): SipProviderState {
  return {
    uri: `sip:+49301234${String(i).padStart(4, '0')}@trunk${i}.example.net`,
    registered: i % 17 !== 16,
  };
}
