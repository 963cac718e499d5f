import { z } from 'zod';
import {
  answer,
  checkedByEffect,
  fields,
  flag,
  integer,
  oneOf,
  text,
} from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import { SNAPSHOT_FORMATS } from '../snapshot/snapshot.ts';
import { FAULTS, type FaultName, type ModuleLogEntry } from '../state/store.ts';
import type { EndpointStatus, MonitoringHostEntry, PbxUserInput, ScenarioInfo } from './control-api.ts';
import { MONITORING_LIMITS } from './monitoring-input.ts';
import type { PublicPbxState } from './public-state.ts';

/** Ten years: far beyond any token expiry or backup age a scenario needs, and still finite. */
export const MAX_CLOCK_ADVANCE_MS = 3650 * 86_400_000;

const instanceNameError = 'must be 1 to 64 characters of A-Z, a-z, 0-9 and _';
const clockAnswer = z.object({ now: z.number() });

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
    actsOn: 'the whole state (reads)',
    output: answer<PublicPbxState>(),
  },
  patchState: {
    method: 'PATCH',
    path: '/state',
    summary: 'Deep-partial overlay; arrays replace; unknown fields are refused',
    actsOn: 'any state field',
    input: checkedByEffect<unknown>(),
  },
  listScenarios: {
    method: 'GET',
    path: '/scenarios',
    summary: 'The named scenarios',
    actsOn: 'nothing (reads the scenario files)',
    output: answer<ScenarioInfo[]>(),
  },
  loadScenario: {
    method: 'PUT',
    path: '/scenario',
    summary: 'Replaces the state with a named scenario for this test',
    actsOn: 'the whole state but the monitoring host and port',
    input: fields({ name: text(128) }),
  },
  setTile: {
    method: 'PUT',
    path: '/monitoring/tile',
    summary: 'Switches the data endpoint tile',
    actsOn: 'monitoring.tileOn',
    input: fields({ on: flag() }),
  },
  setLicence: {
    method: 'PUT',
    path: '/licence',
    summary: 'Makes the licence valid or missing',
    actsOn: 'licence.valid',
    input: fields({ valid: flag() }),
  },
  setMonitoringHosts: {
    method: 'PUT',
    path: '/monitoring/hosts',
    summary: 'Replaces the monitoring-hosts list',
    actsOn: 'monitoring.hosts',
    input: checkedByEffect<MonitoringHostEntry[]>(),
  },
  setUsers: {
    method: 'PUT',
    path: '/users',
    summary: 'Replaces the PBX users (passwords hashed at once)',
    actsOn: 'users',
    input: checkedByEffect<PbxUserInput[]>(),
  },
  setInstanceName: {
    method: 'PUT',
    path: '/monitoring/instance',
    summary: 'Renames the XML-RPC instance',
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
    actsOn: 'monitoring.defaultFormat',
    input: fields({ format: oneOf(SNAPSHOT_FORMATS) }),
  },
  setCacheLifetime: {
    method: 'PUT',
    path: '/monitoring/cache-lifetime',
    summary: 'The snapshot cache lifetime',
    actsOn: 'monitoring.cacheLifetimeMs',
    input: fields({
      ms: integer(MONITORING_LIMITS.cacheLifetimeMs.min, MONITORING_LIMITS.cacheLifetimeMs.max),
    }),
  },
  setMonitoringPort: {
    method: 'PUT',
    path: '/monitoring/port',
    summary: 'Sets the configured port and restarts the endpoint as a module start would',
    actsOn: 'monitoring.port, the data endpoint',
    input: fields({ port: integer(MONITORING_LIMITS.port.min, MONITORING_LIMITS.port.max) }),
    output: answer<EndpointStatus>(),
  },
  restartEndpoint: {
    method: 'POST',
    path: '/monitoring/restart',
    summary: 'Runs the module start of the data endpoint again',
    actsOn: 'the data endpoint',
    output: answer<EndpointStatus>(),
  },
  endpointStatus: {
    method: 'GET',
    path: '/monitoring/status',
    summary: 'Where the data endpoint is in its state machine',
    actsOn: 'the data endpoint (reads)',
    output: answer<EndpointStatus>(),
  },
  activeFaults: {
    method: 'GET',
    path: '/faults',
    summary: 'The faults switched on now, and every known fault',
    actsOn: 'faults (reads)',
    output: answer<{ active: FaultName[]; known: FaultName[] }>(),
  },
  injectFault: {
    method: 'POST',
    path: '/faults',
    summary: 'Switches a fault on',
    actsOn: 'faults, the snapshot cache',
    input: fields({ name: oneOf(FAULTS) }),
  },
  clearFaults: {
    method: 'DELETE',
    path: '/faults',
    summary: 'Switches every fault off',
    actsOn: 'faults, the snapshot cache',
  },
  clearFault: {
    method: 'DELETE',
    path: '/faults/{name}',
    summary: 'Switches one fault off',
    actsOn: 'faults, the snapshot cache',
    input: fields({ name: oneOf(FAULTS) }),
  },
  warnings: {
    method: 'GET',
    path: '/warnings',
    summary: 'Warnings of the module UI',
    actsOn: 'warnings (reads)',
    output: answer<string[]>(),
  },
  moduleLog: {
    method: 'GET',
    path: '/module-log',
    summary: 'Module log lines after seq `since`',
    actsOn: 'the module log (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional() }),
    query: ['since'],
    output: answer<ModuleLogEntry[]>(),
  },
  now: {
    method: 'GET',
    path: '/clock',
    summary: 'The virtual time, epoch ms',
    actsOn: 'the virtual clock (reads)',
    output: clockAnswer,
  },
  advanceClock: {
    method: 'POST',
    path: '/clock/advance',
    summary: 'Advances the virtual clock',
    actsOn: 'the virtual clock',
    input: fields({ ms: integer(0, MAX_CLOCK_ADVANCE_MS) }),
    output: clockAnswer,
  },
  invalidateSnapshot: {
    method: 'POST',
    path: '/snapshot/invalidate',
    summary: 'The next request takes a fresh snapshot',
    actsOn: 'the snapshot cache',
  },
  reset: {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the state the simulator started with',
    actsOn: 'state, faults, warnings, module log, data endpoint',
  },
});
