import {
  controlClient,
  type HttpTransportOptions,
  httpTransport,
} from '../../shared/control/control-client.ts';
import type { ControlClient } from '../../shared/control/control-operation.ts';
import { FLEET_CONTROL_OPERATIONS } from './fleet-operations.ts';

/**
 * The fleet controller's control plane as a typed client, derived from its declarations
 * (fleet-operations.ts): `start().control` goes straight into the dispatcher, `httpFleetControl`
 * over HTTP for steps and any process that does not hold the controller in memory. Both refuse
 * alike; a failure is a `ControlError` (simulators/shared/control/control-error.ts) with the
 * status and the fleet's own code (`bad_request`, `not_found`, `conflict`).
 */
export type FleetControl = ControlClient<typeof FLEET_CONTROL_OPERATIONS>;

/** The fleet control plane at `url` over HTTP (`token`: its bearer token beyond loopback). */
export function httpFleetControl(url: string, options: HttpTransportOptions = {}): FleetControl {
  return controlClient(FLEET_CONTROL_OPERATIONS, httpTransport(url, options));
}
