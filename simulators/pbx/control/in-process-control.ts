import { VirtualClock } from '../../shared/clock.ts';
import {
  describeValue,
  requireBoolean,
  requireInteger,
  requireString,
} from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { listScenarios, resolveScenario } from '../load-scenario.ts';
import type { SnapshotCache } from '../snapshot/snapshot.ts';
import { FAULTS, type FaultName, isFaultName, type ModuleLogEntry, type PbxStore } from '../state/store.ts';
import type { SnapshotFormat } from '../state/types.ts';
import type {
  EndpointStatus,
  MonitoringHostEntry,
  PbxControl,
  PbxUserInput,
  ScenarioInfo,
} from './control-api.ts';
import {
  checkCacheLifetime,
  checkDefaultFormat,
  checkInstanceName,
  checkMonitoringHosts,
  checkPort,
} from './monitoring-input.ts';
import { type PublicPbxState, publicState } from './public-state.ts';
import { checkStateOverlay } from './state-overlay-check.ts';
import { checkUsers } from './users-input.ts';

/** What the control plane needs of the data endpoint (`MonitoringEndpoint` has it). */
export interface ControllableEndpoint {
  /**
   * Brings the listener in line with the state (tile, licence, hosts, host, port); with `restart`
   * it runs the module start again even when nothing changed.
   */
  apply(options?: { restart?: boolean }): Promise<EndpointStatus>;
  status(): EndpointStatus;
}

/** Ten years: far beyond any token expiry or backup age a scenario needs, and still finite. */
const MAX_CLOCK_ADVANCE_MS = 3650 * 86_400_000;

/**
 * The control plane working directly on one simulated PBX (store, snapshot cache, data endpoint).
 * Every input is checked here, so the HTTP server and in-process callers refuse the same things
 * with the same `ControlInputError` messages. Operations that change the state write an `info`
 * line with source `control` to the module log (never a password), so a scenario's log shows
 * what the harness did and when.
 */
export class InProcessPbxControl implements PbxControl {
  constructor(
    private readonly store: PbxStore,
    private readonly cache: SnapshotCache,
    private readonly endpoint: ControllableEndpoint,
  ) {}

  /**
   * A copy of the state without secrets: users carry `login` and `admin` only, the same as
   * `GET /state`: the state without secrets (users carry only `login` and `admin`).
   */
  async getState(): Promise<PublicPbxState> {
    return publicState(this.store.read());
  }

  async patchState(overlay: unknown): Promise<void> {
    checkStateOverlay(this.store.read(), overlay);
    this.store.patch(overlay);
    this.note('state patched', { fields: Object.keys(overlay as object) });
    await this.settle();
  }

  async listScenarios(): Promise<ScenarioInfo[]> {
    return listScenarios();
  }

  /**
   * Replaces the state with a named scenario for the current test only: `reset()` still returns to
   * the state the simulator started with. The configured monitoring host and port stay where they
   * are (the listener must stay where tests connect); faults stay as they are; the snapshot cache
   * is dropped so the next request shows the scenario.
   */
  async loadScenario(name: string): Promise<void> {
    const wanted = requireString(name, 'name', 128);
    const known = listScenarios().map((s) => s.name);
    if (!known.includes(wanted)) {
      throw new ControlInputError(`unknown scenario ${describeValue(wanted)} (known: ${known.join(', ')})`);
    }
    const next = resolveScenario(wanted, this.store.clock.now());
    const { host, port } = this.store.read().monitoring;
    next.monitoring.host = host;
    next.monitoring.port = port;
    this.store.load(next, { asBaseline: false });
    this.cache.invalidate();
    this.note('scenario loaded', { scenario: wanted });
    await this.settle();
  }

  async setTile(on: boolean): Promise<void> {
    const value = requireBoolean(on, 'on');
    this.store.update((s) => {
      s.monitoring.tileOn = value;
    });
    this.note(`endpoint tile switched ${value ? 'on' : 'off'}`);
    await this.settle();
  }

  async setLicence(valid: boolean): Promise<void> {
    const value = requireBoolean(valid, 'valid');
    this.store.update((s) => {
      s.licence.valid = value;
    });
    this.note(value ? 'licence made valid' : 'licence removed');
    await this.settle();
  }

  async setMonitoringHosts(hosts: MonitoringHostEntry[]): Promise<void> {
    const list = checkMonitoringHosts(hosts);
    this.store.update((s) => {
      s.monitoring.hosts = list;
    });
    this.note('monitoring hosts set', {
      hosts: list.map((h) => `${h.entry}${h.active ? '' : ' (inactive)'}`),
    });
    await this.settle();
  }

  async setUsers(users: PbxUserInput[]): Promise<void> {
    const list = checkUsers(users);
    this.store.update((s) => {
      s.users = list;
    });
    this.note('users set', { logins: list.map((u) => u.login) });
  }

  async setInstanceName(name: string): Promise<void> {
    const value = checkInstanceName(name);
    this.store.update((s) => {
      s.monitoring.instanceName = value;
    });
    this.note('XML-RPC instance renamed', { instanceName: value });
  }

  async setDefaultFormat(format: SnapshotFormat): Promise<void> {
    const value = checkDefaultFormat(format);
    this.store.update((s) => {
      s.monitoring.defaultFormat = value;
    });
    this.note('default format set', { format: value });
  }

  async setCacheLifetime(ms: number): Promise<void> {
    const value = checkCacheLifetime(ms);
    this.store.update((s) => {
      s.monitoring.cacheLifetimeMs = value;
    });
    this.note('snapshot cache lifetime set', { ms: value });
  }

  async setMonitoringPort(port: number): Promise<EndpointStatus> {
    const value = checkPort(port);
    this.store.update((s) => {
      s.monitoring.port = value;
    });
    this.note('monitoring port set', { port: value });
    return this.settle({ restart: true });
  }

  async restartEndpoint(): Promise<EndpointStatus> {
    this.note('endpoint restarted');
    return this.settle({ restart: true });
  }

  async endpointStatus(): Promise<EndpointStatus> {
    return this.endpoint.status();
  }

  /**
   * Switches a fault on. The snapshot cache is dropped as well: snapshots memoise their renderings
   * and Linux sections, so without it a warm cache would hide the fault until it expires.
   */
  async injectFault(name: FaultName): Promise<void> {
    const fault = checkFault(name);
    this.store.injectFault(fault);
    this.cache.invalidate();
    this.note('fault injected', { fault });
  }

  /** Switches one fault off, or all when no name is given; drops the snapshot cache (see `injectFault`). */
  async clearFault(name?: FaultName): Promise<void> {
    const fault = name === undefined ? undefined : checkFault(name);
    this.store.clearFault(fault);
    this.cache.invalidate();
    this.note(fault ? 'fault cleared' : 'all faults cleared', fault ? { fault } : undefined);
  }

  async activeFaults(): Promise<FaultName[]> {
    return this.store.activeFaults();
  }

  async warnings(): Promise<string[]> {
    return this.store.warnings();
  }

  async moduleLog(sinceSeq?: number): Promise<ModuleLogEntry[]> {
    const since = sinceSeq === undefined ? 0 : requireInteger(sinceSeq, 'since', 0, Number.MAX_SAFE_INTEGER);
    return structuredClone(this.store.moduleLog(since));
  }

  async advanceClock(ms: number): Promise<number> {
    const step = requireInteger(ms, 'ms', 0, MAX_CLOCK_ADVANCE_MS);
    const clock = this.store.clock;
    if (!(clock instanceof VirtualClock))
      throw new ControlInputError('this simulator runs on a clock that cannot be advanced');
    return clock.advance(step);
  }

  async now(): Promise<number> {
    return this.store.clock.now();
  }

  async invalidateSnapshot(): Promise<void> {
    this.cache.invalidate();
  }

  /**
   * Back to the state the simulator started with (its scenario): state, faults, warnings and
   * module log; the snapshot cache is dropped and the endpoint runs its module start again.
   * The virtual clock is not turned back (time never runs backwards).
   */
  async reset(): Promise<void> {
    this.store.reset();
    this.cache.invalidate();
    await this.settle();
  }

  /**
   * Waits until the endpoint has followed a change, so when an operation returns the listener is
   * where the state says (the endpoint also follows the store by itself; applies are queued).
   * A listen failure does not fail the operation: the endpoint is then `inactive` and the module
   * log has the reason, as on the real module.
   */
  private async settle(options: { restart?: boolean } = {}): Promise<EndpointStatus> {
    try {
      return await this.endpoint.apply(options);
    } catch {
      return this.endpoint.status();
    }
  }

  private note(message: string, data?: Record<string, unknown>): void {
    this.store.log('info', 'control', message, data);
  }
}

function checkFault(name: unknown): FaultName {
  if (!isFaultName(name))
    throw new ControlInputError(`unknown fault ${describeValue(name)} (known: ${FAULTS.join(', ')})`);
  return name;
}
