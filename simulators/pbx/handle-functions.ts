import type { ControlRoute } from '../shared/http/control-route.ts';
import type { FieldActivityOptions } from './activity/field-activity.ts';
import type { AttentionEvent } from './events/attention-event.ts';
import type { ForwarderStatus, RaiseOutcome } from './events/attention-forwarder.ts';
import { partsOf } from './pbx-parts.ts';
import type { ResolutionResult } from './resolver/resolve-number.ts';
import type { PbxHandle } from './start-pbx.ts';
import type { PbxState } from './state/types.ts';

/**
 * The named functions of the front door over a started PBX (issue 30 §2): what a harness in the
 * same process needs beyond the control client, each for one purpose. `pbx` is a handle that
 * `start()` returned; nothing else of the PBX's inside leaves simulators/pbx/.
 */

/** The PBX's current state, password hashes included (`getState` shows none); read only. */
export function pbxState(pbx: PbxHandle): Readonly<PbxState> {
  return partsOf(pbx).store.read();
}

/** The PBX's virtual time in epoch ms, read synchronously (the control operation `now` is async). */
export function pbxNow(pbx: PbxHandle): number {
  return partsOf(pbx).clock.now();
}

/** The control routes of a PBX started with `controlMountedAt`, for the fleet's site plane to serve. */
export function siteControlRoutes(pbx: PbxHandle): readonly ControlRoute[] {
  return partsOf(pbx).controlRoutes;
}

/** Starts field activity (as `activityStart`) under a fleet's site id instead of the serial number. */
export function startFieldActivity(
  pbx: PbxHandle,
  options: FieldActivityOptions & { siteId?: string },
): void {
  partsOf(pbx).activity.start(options);
}

/** Raises an attention event through the forwarder synchronously (as `raiseAttentionEvent`; for benches). */
export function raiseAttention(pbx: PbxHandle, event: AttentionEvent): RaiseOutcome {
  return partsOf(pbx).events.raise(event);
}

/** The forwarder's link state and counters, read synchronously (as `forwarderStatus`). */
export function forwarderStatus(pbx: PbxHandle): ForwarderStatus {
  return partsOf(pbx).events.status();
}

/** One caller lookup by the web resolver as an incoming call triggers it, without the control plane's view. */
export function resolveCaller(pbx: PbxHandle, number: string): Promise<ResolutionResult> {
  return partsOf(pbx).resolver.resolve(number);
}
