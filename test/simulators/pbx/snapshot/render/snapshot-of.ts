import { resolveScenario } from '../../../../../simulators/pbx/load-scenario.ts';
import type { Snapshot } from '../../../../../simulators/pbx/snapshot/snapshot.ts';
import { SnapshotCache } from '../../../../../simulators/pbx/snapshot/snapshot.ts';
import { PbxStore } from '../../../../../simulators/pbx/state/store.ts';
import type { PbxState } from '../../../../../simulators/pbx/state/types.ts';
import { VirtualClock } from '../../../../../simulators/shared/clock.ts';

/** The virtual time the render tests take their snapshots at. */
export const NOW = 1_750_000_000_000;

/** A snapshot of `state` taken the way the simulator takes it (store, cache, frozen clock). */
export function snapshotOf(
  state: PbxState,
  options: { now?: number; linuxScriptFails?: boolean } = {},
): Snapshot {
  const store = new PbxStore(new VirtualClock({ start: options.now ?? NOW }), state);
  if (options.linuxScriptFails) store.injectFault('linux-script-failure');
  return new SnapshotCache(store).get();
}

/** A shipped scenario's state with deterministic (synthetic) Linux sections. */
export function scenarioState(name: string, now = NOW): PbxState {
  const state = resolveScenario(name, now);
  state.os.linuxSectionsSource = 'synthetic';
  return state;
}

export function scenarioSnapshot(name: string): Snapshot {
  return snapshotOf(scenarioState(name));
}

/** Agent text as a client receives it: UTF-8 bytes decoded again. */
export function overTheWire(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
