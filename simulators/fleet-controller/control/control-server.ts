import type { Server } from 'node:http';
import { controlClient, injectTransport } from '../../shared/control/control-client.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { serveOperations } from '../../shared/control/serve-operations.ts';
import { type ControlDialect, createControlDispatcher } from '../../shared/http/control-dispatch.ts';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import { startControlServer as startSharedControlServer } from '../../shared/http/control-server.ts';
import type { SiteControlPlane } from '../../shared/http/site-control-plane.ts';
import type { RequestLogger } from '../api/api-core.ts';
import { ConflictError, NotFoundError } from '../model/fleet-errors.ts';
import type { FleetControl } from './fleet-control.ts';
import { FLEET_CONTROL_OPERATIONS } from './fleet-operations.ts';

/**
 * The fleet control plane's own wording (schemas/fleet-control.openapi.yaml): `bad_request`,
 * `too_large`, `internal`, and 409 `conflict`; its model's errors map to 400, 404 and 409.
 */
export const FLEET_DIALECT: ControlDialect = {
  codes: { invalid_request: 'bad_request', payload_too_large: 'too_large', internal_error: 'internal' },
  classify(error) {
    if (error instanceof SyntaxError || error instanceof TypeError) {
      return { status: 400, error: 'bad_request', message: error.message };
    }
    if (error instanceof NotFoundError) return { status: 404, error: 'not_found', message: error.message };
    if (error instanceof ConflictError) return { status: 409, error: 'conflict', message: error.message };
    return undefined;
  },
};

/** The typed client of the fleet control plane in this process, through its dispatcher (no socket). */
export function inProcessFleetControl(routes: readonly ControlRoute[]): FleetControl {
  return controlClient(
    FLEET_CONTROL_OPERATIONS,
    injectTransport(createControlDispatcher(routes, FLEET_DIALECT)),
  );
}

/** The route table of the fleet control plane, derived from its declarations and their effects. */
export function fleetControlRoutes(effects: Effects<typeof FLEET_CONTROL_OPERATIONS>): ControlRoute[] {
  return serveOperations(FLEET_CONTROL_OPERATIONS, effects);
}

/**
 * The HTTP face of the controller's control plane: its route table on the shared control-plane
 * server (simulators/shared/http/control-server.ts). JSON in and out; 204 for operations without a
 * result; errors as `{error, message}` with 400, 404, 405, 409, 413. Bound to 127.0.0.1 by default;
 * with a token (required beyond loopback) every request must carry `Authorization: Bearer <token>`,
 * else 401.
 */
export async function startControlServer(
  routes: readonly ControlRoute[],
  options: { host: string; port: number; log?: RequestLogger; token?: string; sites?: SiteControlPlane },
): Promise<{ server: Server; url: string }> {
  const log = options.log;
  const { server, url } = await startSharedControlServer(routes, {
    host: options.host,
    port: options.port,
    dialect: FLEET_DIALECT,
    ...(options.sites === undefined ? {} : { sites: options.sites }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(log
      ? {
          log: (entry: { method: string; path: string; status: number }) =>
            log({ face: 'control', ...entry }),
        }
      : {}),
  });
  return { server, url };
}
