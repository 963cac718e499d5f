import type { VirtualClock } from '../shared/clock.ts';
import type { IngestServer } from './ingest/ingest-server.ts';
import type { Authenticator } from './model/authenticator.ts';
import type { FleetState } from './model/fleet-state.ts';
import type { FleetDatabase } from './persistence/fleet-database.ts';

/**
 * The objects one started controller is made of. They stay inside simulators/fleet-controller/:
 * the front door (index.ts) hands out none of them, only named functions over them
 * (handle-functions.ts). The controller's own unit tests (test/simulators/fleet-controller/) may
 * read them with `partsOf`.
 */
export interface ControllerParts {
  state: FleetState;
  clock: VirtualClock;
  authenticator: Authenticator;
  ingest: IngestServer;
  /** The open data directory, or `null` when the state is kept in memory only. */
  database: FleetDatabase | null;
}

const parts = new WeakMap<object, ControllerParts>();

/** Records what the handle `start()` returns is made of (start-controller.ts only). */
export function attachParts<T extends object>(handle: T, of: ControllerParts): T {
  parts.set(handle, of);
  return handle;
}

/** The parts of a handle that `start()` returned; any other object is refused. */
export function partsOf(handle: object): ControllerParts {
  const found = parts.get(handle);
  if (!found) throw new TypeError('not a fleet controller handle from start()');
  return found;
}
