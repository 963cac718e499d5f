import type { Server } from 'node:http';
import { controlClient, injectTransport } from '../../shared/control/control-client.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { serveOperations } from '../../shared/control/serve-operations.ts';
import { createControlDispatcher } from '../../shared/http/control-dispatch.ts';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import { MAX_CONTROL_BODY_BYTES, startControlServer } from '../../shared/http/control-server.ts';
import { PBX_CONTROL_OPERATIONS, type PbxControl } from './pbx-control.ts';

export { MAX_CONTROL_BODY_BYTES };

export interface ControlServerOptions {
  host: string;
  port: number;
  /** More route groups (maintenance tokens, completion events, resolver), matched after the declared operations. */
  extraRoutes?: ControlRoute[];
  /**
   * Bearer token every request must carry (kept as a hash). Required on an address that is not
   * loopback: without one the server refuses to start (issue 12, defect 7).
   */
  token?: string;
}

/**
 * The PBX control plane (schemas/pbx-control.openapi.yaml): the declared operations with their
 * effects on the shared control-plane server (simulators/shared/http/control-server.ts), and an
 * in-process client that goes through the same dispatcher. `routes` is the whole table it
 * dispatches, so a test can hold it against the OpenAPI documents.
 */
export async function createControlServer(
  effects: Effects<typeof PBX_CONTROL_OPERATIONS>,
  options: ControlServerOptions,
): Promise<{ server: Server; url: string; routes: readonly ControlRoute[]; client: PbxControl }> {
  const routes = [...serveOperations(PBX_CONTROL_OPERATIONS, effects), ...(options.extraRoutes ?? [])];
  const { server, url } = await startControlServer(routes, {
    host: options.host,
    port: options.port,
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  const client = controlClient(PBX_CONTROL_OPERATIONS, injectTransport(createControlDispatcher(routes)));
  return { server, url, routes, client };
}
