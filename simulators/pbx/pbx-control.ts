import { controlClient, type HttpTransportOptions, httpTransport } from '../shared/control/control-client.ts';
import { type ControlClient, combineOperations, type Effects } from '../shared/control/control-operation.ts';
import { ACTIVITY_OPERATIONS } from './activity/activity-operations.ts';
import { CONSOLE_OPERATIONS } from './control/console-operations.ts';
import { STATE_OPERATIONS } from './control/state-operations.ts';
import { ATTENTION_OPERATIONS } from './events/attention-operations.ts';
import { MAINTENANCE_CONTROL_OPERATIONS } from './maintenance/maintenance-operations.ts';
import { RESOLVER_OPERATIONS } from './resolver/resolver-operations.ts';

/**
 * Every operation of the PBX control plane, each declared once in its face's folder: the state
 * (schemas/pbx-control.openapi.yaml), the resolver (same document, tag `resolver`), the
 * maintenance API's tokens and events (tag `maintenance`), attention events (tag `pbx-events`),
 * the field-activity switch (`/activity`, issue 22) and the console's change feed and served
 * faces (tag `console`, issue 32).
 */
export const PBX_CONTROL_OPERATIONS = combineOperations(
  STATE_OPERATIONS,
  RESOLVER_OPERATIONS,
  MAINTENANCE_CONTROL_OPERATIONS,
  ATTENTION_OPERATIONS,
  ACTIVITY_OPERATIONS,
  CONSOLE_OPERATIONS,
);

/** What every PBX control operation does to one PBX. */
export type PbxControlEffects = Effects<typeof PBX_CONTROL_OPERATIONS>;

/**
 * The PBX control plane as a typed client, derived from the declarations: `start()` gives one
 * that goes straight into the dispatcher, `httpPbxControl` one over HTTP for steps and any process
 * that does not hold the simulator in memory. Both refuse alike; a failure is a `ControlError`
 * (simulators/shared/control/control-error.ts).
 */
export type PbxControl = ControlClient<typeof PBX_CONTROL_OPERATIONS>;

/** The PBX control plane at `url` over HTTP (`token`: its bearer token beyond loopback). */
export function httpPbxControl(url: string, options: HttpTransportOptions = {}): PbxControl {
  return controlClient(PBX_CONTROL_OPERATIONS, httpTransport(url, options));
}
