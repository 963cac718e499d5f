import {
  controlClient,
  type HttpTransportOptions,
  httpTransport,
} from '../../shared/control/control-client.ts';
import type { ControlClient } from '../../shared/control/control-operation.ts';
import { STATE_OPERATIONS } from './state-operations.ts';

/** The operations of the PBX control plane a client can call. */
export const PBX_CONTROL_OPERATIONS = STATE_OPERATIONS;

/**
 * The PBX control plane as a typed client (schemas/pbx-control.openapi.yaml), derived from the
 * declarations: `start()` gives one that goes straight into the dispatcher, `httpPbxControl` one
 * over HTTP for steps and any process that does not hold the simulator in memory. Both refuse
 * alike; a failure is a `ControlError` (simulators/shared/control/control-error.ts).
 */
export type PbxControl = ControlClient<typeof PBX_CONTROL_OPERATIONS>;

/** The PBX control plane at `url` over HTTP (`token`: its bearer token beyond loopback). */
export function httpPbxControl(url: string, options: HttpTransportOptions = {}): PbxControl {
  return controlClient(PBX_CONTROL_OPERATIONS, httpTransport(url, options));
}
