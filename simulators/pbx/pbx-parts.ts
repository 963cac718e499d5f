import type { VirtualClock } from '../shared/clock.ts';
import type { ControlRoute } from '../shared/http/control-route.ts';
import type { FieldActivity } from './activity/field-activity.ts';
import type { AttentionForwarder } from './events/attention-forwarder.ts';
import type { MaintenanceFace } from './maintenance/create-maintenance.ts';
import type { MonitoringEndpoint } from './monitoring/endpoint/monitoring-endpoint.ts';
import type { Resolver } from './resolver/resolver.ts';
import type { SnapshotCache } from './snapshot/snapshot.ts';
import type { PbxStore } from './state/store.ts';

/**
 * The objects one started PBX is made of. They stay inside simulators/pbx/: the front door
 * (index.ts) hands out none of them, only named functions over them (handle-functions.ts). The
 * unit tests of the PBX's own faces (test/simulators/pbx/) may read them with `partsOf`.
 */
export interface PbxParts {
  store: PbxStore;
  clock: VirtualClock;
  cache: SnapshotCache;
  endpoint: MonitoringEndpoint;
  maintenance: MaintenanceFace;
  events: AttentionForwarder;
  resolver: Resolver;
  /** `--activity field`: the PBX changing over virtual time from a seed (issue 22). */
  activity: FieldActivity;
  /** Every route the control server dispatches, from all groups. */
  controlRoutes: readonly ControlRoute[];
}

const parts = new WeakMap<object, PbxParts>();

/** Records what the handle `start()` returns is made of (start-pbx.ts only). */
export function attachParts<T extends object>(handle: T, of: PbxParts): T {
  parts.set(handle, of);
  return handle;
}

/** The parts of a handle that `start()` returned; any other object is refused. */
export function partsOf(handle: object): PbxParts {
  const found = parts.get(handle);
  if (!found) throw new TypeError('not a PBX handle from start()');
  return found;
}
