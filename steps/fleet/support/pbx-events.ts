import type { AttentionEvent, PbxControl } from '../../../simulators/pbx/index.ts';
import { ControlError } from '../../../simulators/shared/index.ts';

/** How long the harness waits for a PBX to deliver its attention events (real time). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** An attention event as the PBX control plane raises it (EVENT-UNSPEC-ATTENTIONEVENT-FIELDS), at the PBX's now. */
export type RaisedEvent = Omit<AttentionEvent, 'at'>;

/**
 * Waits (real time) until the PBX's link is up and nothing waits to be delivered
 * (`waitDelivered` of its control plane, tag `pbx-events` in schemas/pbx-control.openapi.yaml).
 * `false` when that does not happen within `timeoutMs` (the plane's 504); any other failure is a
 * harness error and throws.
 */
export async function deliveredInTime(
  control: PbxControl,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<boolean> {
  try {
    await control.waitDelivered({ timeoutMs });
    return true;
  } catch (error) {
    if (error instanceof ControlError && error.status === 504) return false;
    throw error;
  }
}
