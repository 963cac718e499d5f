import type { ControlRoute } from '../shared/http/control-route.ts';
import { startControlServer } from '../shared/http/control-server.ts';

/** Request bodies beyond this get 413: a configuration with a 1 MiB body in base64 still fits. */
export const MAX_ENDPOINT_CONTROL_BODY_BYTES = 2 * 1024 * 1024;

export interface EndpointControlServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The listener of the customer endpoint's control plane: its route table on the shared
 * control-plane server (simulators/shared/http/control-server.ts; same error bodies as the PBX's:
 * 400 `invalid_request`, 404, 405, 413, 500), with bounded bodies and header/request timeouts.
 */
export async function startEndpointControlServer(
  routes: readonly ControlRoute[],
  options: { host: string; port: number },
): Promise<EndpointControlServer> {
  const { url, close } = await startControlServer(routes, {
    host: options.host,
    port: options.port,
    maxBodyBytes: MAX_ENDPOINT_CONTROL_BODY_BYTES,
    requestTimeoutMs: 90_000,
  });
  return { url, close };
}
