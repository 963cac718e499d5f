import type { EndpointStatus } from '../monitoring/endpoint/endpoint-status.ts';
import type { FaultName, ModuleLogEntry } from '../state/store.ts';
import type { SnapshotFormat } from '../state/types.ts';
import type { PublicPbxState } from './public-state.ts';

export type { EndpointStatus };

/** A user as the control plane takes it: the clear password is hashed at once and never kept. */
export interface PbxUserInput {
  login: string;
  password: string;
  admin?: boolean;
}

export interface MonitoringHostEntry {
  entry: string;
  active: boolean;
}

export interface ScenarioInfo {
  name: string;
  description: string;
}

/**
 * The control plane of the simulated PBX: one interface with two implementations, in-process
 * (`InProcessPbxControl`) and over HTTP (`HttpPbxControl`, the API documented in
 * schemas/pbx-control.openapi.yaml). Tests in any language drive the HTTP form.
 * Every operation is async so both implementations fit.
 */
export interface PbxControl {
  /** The state without secrets: users carry only `login` and `admin`. */
  getState(): Promise<PublicPbxState>;
  /** Deep-partial overlay; arrays replace; unknown fields are refused. */
  patchState(overlay: unknown): Promise<void>;
  listScenarios(): Promise<ScenarioInfo[]>;
  loadScenario(name: string): Promise<void>;
  setTile(on: boolean): Promise<void>;
  setLicence(valid: boolean): Promise<void>;
  setMonitoringHosts(hosts: MonitoringHostEntry[]): Promise<void>;
  setUsers(users: PbxUserInput[]): Promise<void>;
  setInstanceName(name: string): Promise<void>;
  setDefaultFormat(format: SnapshotFormat): Promise<void>;
  setCacheLifetime(ms: number): Promise<void>;
  /** Sets the configured port and restarts the endpoint as a module start would. */
  setMonitoringPort(port: number): Promise<EndpointStatus>;
  /** Re-runs the module start of the data endpoint (port selection, tile, licence). */
  restartEndpoint(): Promise<EndpointStatus>;
  endpointStatus(): Promise<EndpointStatus>;
  injectFault(name: FaultName): Promise<void>;
  clearFault(name?: FaultName): Promise<void>;
  /** The faults switched on now (`GET /faults`). */
  activeFaults(): Promise<FaultName[]>;
  warnings(): Promise<string[]>;
  moduleLog(sinceSeq?: number): Promise<ModuleLogEntry[]>;
  /** Advances the virtual clock; returns the new time (epoch ms). */
  advanceClock(ms: number): Promise<number>;
  now(): Promise<number>;
  /** Drops the cached snapshot so the next request takes a fresh one. */
  invalidateSnapshot(): Promise<void>;
  /** Back to the state the simulator started with: state, faults, warnings, log, endpoint. */
  reset(): Promise<void>;
}
