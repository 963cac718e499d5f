import { VirtualClock } from '../../shared/clock.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { describeValue } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { listScenarios, resolveScenario } from '../load-scenario.ts';
import type { SnapshotCache } from '../snapshot/snapshot.ts';
import { FAULTS, type PbxStore } from '../state/store.ts';
import type { EndpointStatus } from './control-api.ts';
import { checkMonitoringHosts } from './monitoring-input.ts';
import { publicState } from './public-state.ts';
import type { STATE_OPERATIONS } from './state-operations.ts';
import { checkStateOverlay, type OverlayRules } from './state-overlay-check.ts';
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

/**
 * What each operation of `STATE_OPERATIONS` does to one simulated PBX (store, snapshot cache, data
 * endpoint). The declared schemas have checked types and ranges before an effect runs; the
 * effects check what needs the state (a known scenario, a host entry the endpoint can match, a
 * state overlay). Operations that change the state write an `info` line with source `control` to
 * the module log (never a password), so a scenario's log shows what the harness did and when.
 */
export function stateEffects(
  store: PbxStore,
  cache: SnapshotCache,
  endpoint: ControllableEndpoint,
  /** Value rules of the state fields other faces own (the resolver's), checked on `patchState`. */
  faceRules: OverlayRules = {},
): Effects<typeof STATE_OPERATIONS> {
  const note = (message: string, data?: Record<string, unknown>) =>
    store.log('info', 'control', message, data);
  /**
   * Waits until the endpoint has followed a change, so when an operation returns the listener is
   * where the state says (the endpoint also follows the store by itself; applies are queued).
   * A listen failure does not fail the operation: the endpoint is then `inactive` and the module
   * log has the reason, as on the real module.
   */
  const settle = async (options: { restart?: boolean } = {}): Promise<EndpointStatus> => {
    try {
      return await endpoint.apply(options);
    } catch {
      return endpoint.status();
    }
  };
  return {
    getState: () => publicState(store.read()),
    async patchState(overlay) {
      checkStateOverlay(store.read(), overlay, faceRules);
      store.patch(overlay);
      note('state patched', { fields: Object.keys(overlay as object) });
      await settle();
    },
    listScenarios: () => listScenarios(),
    /**
     * Replaces the state with a named scenario for the current test only: `reset` still returns to
     * the state the simulator started with. The configured monitoring host and port stay where
     * they are (the listener must stay where tests connect); faults stay as they are; the snapshot
     * cache is dropped so the next request shows the scenario.
     */
    async loadScenario({ name }) {
      const known = listScenarios().map((s) => s.name);
      if (!known.includes(name)) {
        throw new ControlInputError(`unknown scenario ${describeValue(name)} (known: ${known.join(', ')})`);
      }
      const next = resolveScenario(name, store.clock.now());
      const { host, port } = store.read().monitoring;
      next.monitoring.host = host;
      next.monitoring.port = port;
      store.load(next, { asBaseline: false });
      cache.invalidate();
      note('scenario loaded', { scenario: name });
      await settle();
    },
    async setTile({ on }) {
      store.update((s) => {
        s.monitoring.tileOn = on;
      });
      note(`endpoint tile switched ${on ? 'on' : 'off'}`);
      await settle();
    },
    async setLicence({ valid }) {
      store.update((s) => {
        s.licence.valid = valid;
      });
      note(valid ? 'licence made valid' : 'licence removed');
      await settle();
    },
    async setMonitoringHosts(hosts) {
      const list = checkMonitoringHosts(hosts);
      store.update((s) => {
        s.monitoring.hosts = list;
      });
      note('monitoring hosts set', { hosts: list.map((h) => `${h.entry}${h.active ? '' : ' (inactive)'}`) });
      await settle();
    },
    setUsers(users) {
      const list = checkUsers(users);
      store.update((s) => {
        s.users = list;
      });
      note('users set', { logins: list.map((u) => u.login) });
    },
    setInstanceName({ name }) {
      store.update((s) => {
        s.monitoring.instanceName = name;
      });
      note('XML-RPC instance renamed', { instanceName: name });
    },
    setDefaultFormat({ format }) {
      store.update((s) => {
        s.monitoring.defaultFormat = format;
      });
      note('default format set', { format });
    },
    setCacheLifetime({ ms }) {
      store.update((s) => {
        s.monitoring.cacheLifetimeMs = ms;
      });
      note('snapshot cache lifetime set', { ms });
    },
    async setMonitoringPort({ port }) {
      store.update((s) => {
        s.monitoring.port = port;
      });
      note('monitoring port set', { port });
      return settle({ restart: true });
    },
    restartEndpoint() {
      note('endpoint restarted');
      return settle({ restart: true });
    },
    endpointStatus: () => endpoint.status(),
    activeFaults: () => ({ active: store.activeFaults(), known: [...FAULTS] }),
    /**
     * Switches a fault on. The snapshot cache is dropped as well: snapshots memoise their
     * renderings and Linux sections, so without it a warm cache would hide the fault until it
     * expires.
     */
    injectFault({ name }) {
      store.injectFault(name);
      cache.invalidate();
      note('fault injected', { fault: name });
    },
    clearFaults() {
      store.clearFault(undefined);
      cache.invalidate();
      note('all faults cleared');
    },
    clearFault({ name }) {
      store.clearFault(name);
      cache.invalidate();
      note('fault cleared', { fault: name });
    },
    warnings: () => store.warnings(),
    moduleLog: ({ since }) => structuredClone(store.moduleLog(since ?? 0)),
    advanceClock({ ms }) {
      const clock = store.clock;
      if (!(clock instanceof VirtualClock))
        throw new ControlInputError('this simulator runs on a clock that cannot be advanced');
      const now = clock.advance(ms);
      store.emit('clock');
      return { now, mode: clock.mode };
    },
    now: () => ({
      now: store.clock.now(),
      mode: store.clock instanceof VirtualClock ? store.clock.mode : 'running',
    }),
    invalidateSnapshot() {
      cache.invalidate();
    },
    /**
     * Back to the state the simulator started with (its scenario): state, faults, warnings and
     * module log; the snapshot cache is dropped and the endpoint runs its module start again.
     * The virtual clock is not turned back (time never runs backwards).
     */
    async reset() {
      store.reset();
      cache.invalidate();
      await settle();
    },
  };
}
