import { controlClient, type HttpTransportOptions, httpTransport } from '../shared/control/control-client.ts';
import type { ControlClient } from '../shared/control/control-operation.ts';
import { ENDPOINT_CONTROL_OPERATIONS } from './endpoint-operations.ts';

/**
 * The customer endpoint's control plane as a typed client, derived from its declarations
 * (endpoint-operations.ts), speaking the wire forms of the document (`bodyBase64`, recordings with
 * the body as text and base64; wire-config.ts converts): `start().client` in process,
 * `httpEndpointControl` over HTTP. A failure is a `ControlError`
 * (simulators/shared/control/control-error.ts), e.g. 404 `not_found`, 408 `timeout`.
 */
export type EndpointControl = ControlClient<typeof ENDPOINT_CONTROL_OPERATIONS>;

/**
 * The control plane at `url` over HTTP (undici), for a process that does not hold the endpoint in
 * memory, e.g. next to `pbx-conformance endpoint`.
 */
export function httpEndpointControl(url: string, options: HttpTransportOptions = {}): EndpointControl {
  return controlClient(ENDPOINT_CONTROL_OPERATIONS, httpTransport(url, options));
}
