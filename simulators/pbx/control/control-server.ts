import type { Server } from 'node:http';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import { MAX_CONTROL_BODY_BYTES, startControlServer } from '../../shared/http/control-server.ts';
import type { PbxControl } from './control-api.ts';
import { controlRoutes } from './control-routes.ts';

export { MAX_CONTROL_BODY_BYTES };

export interface ControlServerOptions {
  host: string;
  port: number;
  /** More route groups (maintenance tokens, completion events, fleet controller), matched after the core table. */
  extraRoutes?: ControlRoute[];
  /**
   * Bearer token every request must carry (kept as a hash). Required on an address that is not
   * loopback: without one the server refuses to start (issue 12, defect 7).
   */
  token?: string;
}

/**
 * The HTTP form of the PBX control plane (schemas/pbx-control.openapi.yaml): its route table on
 * the shared control-plane server (simulators/shared/http/control-server.ts). `routes` is the
 * whole table it dispatches (core and extra groups), so a test can hold it against the OpenAPI
 * documents.
 */
export async function createControlServer(
  control: PbxControl,
  options: ControlServerOptions,
): Promise<{ server: Server; url: string; routes: readonly ControlRoute[] }> {
  const routes = [...controlRoutes(control), ...(options.extraRoutes ?? [])];
  const { server, url } = await startControlServer(routes, {
    host: options.host,
    port: options.port,
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  return { server, url, routes };
}
