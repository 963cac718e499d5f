import { z } from 'zod';
import { fields, flag, integer, shaped, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { ModuleLogEntry as LogEntry } from '../state/store.ts';
import type {
  MonitoringHostEntry as HostEntry,
  PbxUserInput,
  EndpointStatus as Status,
} from './control-api.ts';
import { MONITORING_LIMITS } from './monitoring-input.ts';
import type { PublicPbxState } from './public-state.ts';
import {
  ClockTime,
  EndpointStatus,
  FaultName,
  Faults,
  ModuleLogEntry,
  MonitoringHostEntry,
  PublicState,
  ScenarioInfo,
  SnapshotFormat,
  StateOverlay,
  UserInput,
} from './state-schemas.ts';

/** Ten years: far beyond any token expiry or backup age a scenario needs, and still finite. */
export const MAX_CLOCK_ADVANCE_MS = 3650 * 86_400_000;

const instanceNameError = 'must be 1 to 64 characters of A-Z, a-z, 0-9 and _';
const clockAnswer = ClockTime;

/**
 * The PBX control plane's own operations (schemas/pbx-control.openapi.yaml): the state, scenarios,
 * the data endpoint's settings, faults, observations and the virtual clock. Each is declared once
 * here; `stateEffects` (state-effects.ts) gives what each does to the one PBX state.
 */
export const STATE_OPERATIONS = defineOperations({
  getState: {
    method: 'GET',
    path: '/state',
    summary: 'The state without secrets (users carry only login and admin)',
    tag: 'state',
    description:
      "Returns a copy of the simulator's state (simulators/pbx/state/types.ts). Secrets are never shown: users carry `login` and `admin` only, without the password hash. Tests read it to check what a command sent over another face (maintenance API, XML-RPC) changed.",
    answers: 'The state without secrets.',
    actsOn: 'the whole state (reads)',
    output: shaped<PublicPbxState>(PublicState),
  },
  patchState: {
    method: 'PATCH',
    path: '/state',
    summary: 'Deep-partial overlay; arrays replace; unknown fields are refused',
    tag: 'state',
    description:
      'Applies a deep-partial overlay: objects merge field by field, arrays and scalars replace, `null` is allowed only where the state allows it (`raid`). Unknown fields, wrong JSON types, incomplete array elements and out-of-range settings are refused with 400 and nothing changes. The monitoring settings are checked as by their own operations below. The snapshot cache is kept, as on the real system (see `POST /snapshot/invalidate`).',
    answers: 'The overlay is applied; the data endpoint has followed it.',
    actsOn: 'any state field',
    input: shaped<unknown>(StateOverlay),
  },
  listScenarios: {
    method: 'GET',
    path: '/scenarios',
    summary: 'The named scenarios',
    tag: 'state',
    description:
      'The scenarios that `PUT /scenario` can load (simulators/pbx/scenarios/), with a line each on what they set up.',
    answers: 'Known scenarios.',
    actsOn: 'nothing (reads the scenario files)',
    output: z.array(ScenarioInfo),
  },
  loadScenario: {
    method: 'PUT',
    path: '/scenario',
    summary: 'Replaces the state with a named scenario for this test',
    tag: 'state',
    description:
      'Replaces the state with a named scenario for the current test. The configured monitoring host and port stay where they are so the data endpoint stays where tests connect (patch them afterwards to move it); active faults stay; the snapshot cache is dropped. `POST /reset` still returns to the state the simulator started with.',
    answers: 'The scenario is loaded.',
    actsOn: 'the whole state but the monitoring host and port',
    input: fields({ name: text(128) }),
  },
  setTile: {
    method: 'PUT',
    path: '/monitoring/tile',
    summary: 'Switches the data endpoint tile',
    tag: 'monitoring',
    description:
      'The tile of the monitoring module (default on, MON-STATE-TILE-DEFAULT-ON). Off stops the data endpoint and empties the XML-RPC data queries. Answers once the endpoint has followed.',
    answers: 'Done; the endpoint has followed.',
    actsOn: 'monitoring.tileOn',
    input: fields({ on: flag() }),
  },
  setLicence: {
    method: 'PUT',
    path: '/licence',
    summary: 'Makes the licence valid or missing',
    tag: 'monitoring',
    description:
      'Without a licence the data endpoint stops (MON-STATE-UNLICENSED) and the XML-RPC data queries return empty payloads. Answers once the endpoint has followed.',
    answers: 'Done; the endpoint has followed.',
    actsOn: 'licence.valid',
    input: fields({ valid: flag() }),
  },
  setMonitoringHosts: {
    method: 'PUT',
    path: '/monitoring/hosts',
    summary: 'Replaces the monitoring-hosts list',
    tag: 'monitoring',
    description:
      'The addresses the data endpoint serves (MON-AUTH-*): IPv4 addresses or CIDR ranges, each active or not (`active` defaults to true). IPv6 entries, host names and malformed ranges are refused. With no active entry the endpoint stays closed. At most 1024 entries.',
    answers: 'The list is replaced; the endpoint has followed.',
    actsOn: 'monitoring.hosts',
    input: shaped<HostEntry[]>(
      z.array(MonitoringHostEntry, { error: 'must be an array' }).max(MONITORING_LIMITS.maxHosts),
    ),
  },
  setUsers: {
    method: 'PUT',
    path: '/users',
    summary: 'Replaces the PBX users (passwords hashed at once)',
    tag: 'state',
    description:
      'The users that may sign in to XML-RPC. Passwords are sent in clear and hashed at once (lowercase hex SHA-512); the clear text is never kept, logged or shown. Logins are unique and hold no `:`, white space or control characters; `admin` defaults to false.',
    answers: 'The users are replaced.',
    actsOn: 'users',
    input: shaped<PbxUserInput[]>(z.array(UserInput, { error: 'must be an array' }).max(1000)),
  },
  setInstanceName: {
    method: 'PUT',
    path: '/monitoring/instance',
    summary: 'Renames the XML-RPC instance',
    tag: 'monitoring',
    description:
      'XML-RPC methods are `<instance>.<command>`; renaming the instance renames them (default `Monitoring`). The name is 1 to 64 characters of `A-Z a-z 0-9 _`.',
    answers: 'The instance is renamed.',
    actsOn: 'monitoring.instanceName',
    input: fields({
      name: z
        .string({ error: instanceNameError })
        .regex(MONITORING_LIMITS.instanceName, { error: instanceNameError }),
    }),
  },
  setDefaultFormat: {
    method: 'PUT',
    path: '/monitoring/default-format',
    summary: 'The format of a request that asks for none',
    tag: 'monitoring',
    description:
      'What a client that sends no HTTP request (or an unknown path or format) receives; factory default `checkmk`.',
    answers: 'The default format is set.',
    actsOn: 'monitoring.defaultFormat',
    input: fields({ format: SnapshotFormat }),
  },
  setCacheLifetime: {
    method: 'PUT',
    path: '/monitoring/cache-lifetime',
    summary: 'The snapshot cache lifetime',
    tag: 'monitoring',
    description:
      'How long a snapshot is reused (default 30000 ms, MON-CACHE-CONFIGURABLE); 0 takes a fresh snapshot for every request. Applies to the snapshot already cached. Range 0 to 86400000.',
    answers: 'The lifetime is set.',
    actsOn: 'monitoring.cacheLifetimeMs',
    input: fields({
      ms: integer(MONITORING_LIMITS.cacheLifetimeMs.min, MONITORING_LIMITS.cacheLifetimeMs.max),
    }),
  },
  setMonitoringPort: {
    method: 'PUT',
    path: '/monitoring/port',
    summary: 'Sets the configured port and restarts the endpoint as a module start would',
    tag: 'monitoring',
    description:
      'Sets the configured data-endpoint port (0 asks the OS for a free one) and runs the module start again: a busy port is followed by the next one with a UI warning; both busy leaves the endpoint `inactive` (MON-STATE-PORT-FALLBACK, MON-STATE-BOTH-PORTS-BUSY). A listen failure is not an error of this call: the status says `inactive` and the module log says why.',
    answers: 'Where the endpoint is after the restart.',
    actsOn: 'monitoring.port, the data endpoint',
    input: fields({ port: integer(MONITORING_LIMITS.port.min, MONITORING_LIMITS.port.max) }),
    output: shaped<Status>(EndpointStatus),
  },
  restartEndpoint: {
    method: 'POST',
    path: '/monitoring/restart',
    summary: 'Runs the module start of the data endpoint again',
    tag: 'monitoring',
    description:
      'Port selection, tile, licence and hosts conditions, as when the module starts. Tests use it after occupying the configured port to see the fallback.',
    answers: 'Where the endpoint is after the restart.',
    actsOn: 'the data endpoint',
    output: shaped<Status>(EndpointStatus),
  },
  endpointStatus: {
    method: 'GET',
    path: '/monitoring/status',
    summary: 'Where the data endpoint is in its state machine',
    tag: 'monitoring',
    description:
      "The endpoint's state (`listening`, `stopped`, `inactive`), the port it listens on and the configured port.",
    answers: 'The endpoint status.',
    actsOn: 'the data endpoint (reads)',
    output: shaped<Status>(EndpointStatus),
  },
  activeFaults: {
    method: 'GET',
    path: '/faults',
    summary: 'The faults switched on now, and every known fault',
    tag: 'faults',
    description:
      'The faults switched on now, and every fault the simulator knows (docs/control-plane.md describes each).',
    answers: 'Active and known faults.',
    actsOn: 'faults (reads)',
    output: Faults,
  },
  injectFault: {
    method: 'POST',
    path: '/faults',
    summary: 'Switches a fault on',
    tag: 'faults',
    description:
      'Switches a failure on until it is cleared or the simulator is reset, e.g. `render-error` for MON-ERR-RENDER-HTTP. The snapshot cache is dropped so the fault shows at once.',
    answers: 'The fault is on.',
    actsOn: 'faults, the snapshot cache',
    input: fields({ name: FaultName }),
  },
  clearFaults: {
    method: 'DELETE',
    path: '/faults',
    summary: 'Switches every fault off',
    tag: 'faults',
    description:
      'Clears all faults (the TypeScript form is `clearFault()` without a name); drops the snapshot cache.',
    answers: 'No fault is on.',
    actsOn: 'faults, the snapshot cache',
  },
  clearFault: {
    method: 'DELETE',
    path: '/faults/{name}',
    summary: 'Switches one fault off',
    tag: 'faults',
    description: 'Clears one fault; an unknown name is a 400. Drops the snapshot cache.',
    answers: 'The fault is off.',
    actsOn: 'faults, the snapshot cache',
    input: fields({ name: FaultName }),
  },
  warnings: {
    method: 'GET',
    path: '/warnings',
    summary: 'Warnings of the module UI',
    tag: 'observe',
    description: 'Warnings the module UI would show, e.g. the port fallback of MON-STATE-PORT-FALLBACK.',
    answers: 'Current warnings.',
    actsOn: 'warnings (reads)',
    output: z.array(z.string()),
  },
  moduleLog: {
    method: 'GET',
    path: '/module-log',
    summary: 'Module log lines after seq `since`',
    tag: 'observe',
    description:
      'Log lines of every face (`monitoring`, `xmlrpc`, `maintenance`, `resolver`, `events`, `control`, `ui`), oldest first, e.g. the details of XMLRPC-ERR-COLLECTION. With `since`, only lines with a larger `seq`: pass the last `seq` seen to read what is new. Never holds secrets.',
    answers: 'Log lines.',
    actsOn: 'the module log (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional() }),
    query: ['since'],
    output: shaped<LogEntry[]>(z.array(ModuleLogEntry)),
  },
  now: {
    method: 'GET',
    path: '/clock',
    summary: 'The virtual time, epoch ms',
    tag: 'time',
    description: "The simulator's time (epoch ms) that snapshot cache, token expiry and timestamps use.",
    answers: 'The virtual time.',
    actsOn: 'the virtual clock (reads)',
    output: clockAnswer,
  },
  advanceClock: {
    method: 'POST',
    path: '/clock/advance',
    summary: 'Advances the virtual clock',
    tag: 'time',
    description:
      'Moves the virtual clock forward and fires every simulated timer that falls due, in order; e.g. past the 30 s snapshot cache lifetime (MON-CACHE-DEFAULT) without waiting. Integer milliseconds from 0 to ten years; the clock never runs backwards.',
    answers: 'The new virtual time.',
    actsOn: 'the virtual clock',
    input: fields({ ms: integer(0, MAX_CLOCK_ADVANCE_MS) }),
    output: clockAnswer,
  },
  invalidateSnapshot: {
    method: 'POST',
    path: '/snapshot/invalidate',
    summary: 'The next request takes a fresh snapshot',
    tag: 'time',
    description:
      'The next request of the data endpoint or XML-RPC takes a fresh snapshot, so a state change shows at once.',
    answers: 'The cache is empty.',
    actsOn: 'the snapshot cache',
  },
  reset: {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the state the simulator started with',
    tag: 'state',
    description:
      'Everything a scenario changed returns to the start: state (the scenario the simulator was started with, even after `PUT /scenario`), faults, warnings and module log; the snapshot cache is dropped and the endpoint follows. The virtual clock keeps its time. The harness calls it before and after each scenario on a remote simulator.',
    answers: 'Back at the start.',
    actsOn: 'state, faults, warnings, module log, data endpoint',
  },
});
