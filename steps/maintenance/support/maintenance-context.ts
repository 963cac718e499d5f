import type { CompletionEvent, CreatedToken } from '../../../simulators/pbx/index.ts';
import type { PbxWorld } from '../../support/world.ts';
import type { ApiExchange } from './api-exchange.ts';

/** Where the completion events and the module log stood before a command was posted. */
export interface Marks {
  eventSeq: number;
  logSeq: number;
  /** Virtual-clock time of the post (epoch ms). */
  at: number;
}

/**
 * What the maintenance steps of one scenario keep between steps. Kept beside the World (not in
 * it) so the shared World stays small; it lives exactly as long as the scenario's World.
 */
export interface MaintenanceContext {
  /** The token "the API client" sends: the last one created, or the target file's. */
  token?: string;
  /** Tokens created in this scenario, with their secrets, oldest first. */
  readonly created: CreatedToken[];
  /** The last token-management attempt that was refused, for `Then … is refused`. */
  refusal?: unknown;
  /** Every API exchange of the scenario, oldest first (property runs excluded). */
  readonly exchanges: ApiExchange[];
  /** Marks taken right before the last command was posted through a step. */
  marks?: Marks;
  /** The last command posted through a step. */
  lastCommand?: string;
  /**
   * Virtual-clock time right before the last command post or command-list request of "the API
   * client" (epoch ms); with a running clock, the lower bound of the call's own time.
   */
  callStartedAt?: number;
  /** The completion event a step found last. */
  event?: CompletionEvent;
  /** Values of the PBX state a command acts on, noted before it was posted. */
  probes: Map<string, unknown>;
  /** A system action (`RestartPbx`, `UpdatePbx`) was accepted: the PBX may go away for a while. */
  systemActionAccepted?: boolean;
}

const contexts = new WeakMap<PbxWorld, MaintenanceContext>();

/** The maintenance context of this scenario's World, made on first use. */
export function maintenanceContext(world: PbxWorld): MaintenanceContext {
  let context = contexts.get(world);
  if (!context) {
    context = { created: [], exchanges: [], probes: new Map() };
    contexts.set(world, context);
  }
  return context;
}

/** The last API exchange of the scenario; fails when none was made. */
export function lastExchange(world: PbxWorld): ApiExchange {
  const last = maintenanceContext(world).exchanges.at(-1);
  if (!last) throw new Error('no request was sent to the maintenance API in this scenario');
  return last;
}
