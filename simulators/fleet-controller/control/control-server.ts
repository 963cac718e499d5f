import type { Server } from 'node:http';
import type { ControlDialect } from '../../shared/http/control-dispatch.ts';
import type { ControlMethod, ControlRoute } from '../../shared/http/control-route.ts';
import { startControlServer as startSharedControlServer } from '../../shared/http/control-server.ts';
import type { SiteControlPlane } from '../../shared/http/site-control-plane.ts';
import type { RequestLogger } from '../api/api-core.ts';
import { ConflictError, NotFoundError } from '../model/fleet-errors.ts';
import type { FleetControl } from './fleet-control.ts';
import { BadRequestError } from './in-process-control.ts';

type Handler = (control: FleetControl, params: Record<string, string>, body: unknown) => Promise<unknown>;

/** One control-plane operation; `path` is the OpenAPI path template of schemas/fleet-control.openapi.yaml. */
export interface FleetControlRoute {
  method: ControlMethod;
  path: string;
  handle: Handler;
}

export const FLEET_CONTROL_ROUTES: readonly FleetControlRoute[] = [
  { method: 'POST', path: '/reset', handle: (c) => c.reset() },
  { method: 'GET', path: '/clock', handle: async (c) => ({ now: await c.now() }) },
  {
    method: 'POST',
    path: '/clock/advance',
    handle: async (c, _, b) => ({ now: await c.advanceClock(field(b, 'ms') as number) }),
  },
  { method: 'POST', path: '/partners', handle: (c, _, b) => c.addPartner(b as never) },
  { method: 'POST', path: '/sites', handle: (c, _, b) => c.addSite(b as never) },
  {
    method: 'PATCH',
    path: '/sites/{siteId}',
    handle: (c, p, b) => c.renameSite(p['siteId']!, field(b, 'displayName') as string),
  },
  { method: 'PUT', path: '/rights', handle: (c, _, b) => c.grant(b as never) },
  {
    method: 'DELETE',
    path: '/rights/{partnerId}/{siteId}',
    handle: (c, p) => c.revoke(p['partnerId']!, p['siteId']!),
  },
  { method: 'POST', path: '/accounts', handle: (c, _, b) => c.addAccount(b as never) },
  {
    method: 'PATCH',
    path: '/accounts/{accountId}',
    handle: (c, p, b) => c.updateAccount(p['accountId']!, (b ?? {}) as never),
  },
  { method: 'POST', path: '/tokens', handle: (c, _, b) => c.issueToken(b as never) },
  { method: 'DELETE', path: '/tokens/{tokenId}', handle: (c, p) => c.revokeToken(p['tokenId']!) },
  {
    method: 'POST',
    path: '/sites/{siteId}/pbx',
    handle: (c, p, b) => c.registerPbx(p['siteId']!, field(b, 'key') as string | undefined),
  },
  {
    method: 'PUT',
    path: '/sites/{siteId}/inventory',
    handle: (c, p, b) => c.setInventory(p['siteId']!, (b ?? null) as never),
  },
  {
    method: 'POST',
    path: '/sites/{siteId}/events',
    handle: (c, p, b) => c.injectEvent(p['siteId']!, b as never),
  },
  { method: 'GET', path: '/sites/{siteId}/items', handle: (c, p) => c.items(p['siteId']!) },
  { method: 'GET', path: '/sites/{siteId}/link', handle: (c, p) => c.linkStatus(p['siteId']!) },
  { method: 'POST', path: '/sites/{siteId}/link/cut', handle: (c, p) => c.cutLink(p['siteId']!) },
  { method: 'POST', path: '/sites/{siteId}/link/restore', handle: (c, p) => c.restoreLink(p['siteId']!) },
  { method: 'GET', path: '/stats', handle: (c) => c.stats() },
];

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** The operations as a route table of the shared control-plane server: 200 with the result, 204 without one. */
export function fleetControlRoutes(control: FleetControl): ControlRoute[] {
  return FLEET_CONTROL_ROUTES.map((route) => ({
    method: route.method,
    path: route.path,
    async handle({ params, body }) {
      const result = await route.handle(control, params, body);
      return result === undefined ? { status: 204 } : { status: 200, body: result };
    },
  }));
}

/**
 * The fleet control plane's own wording (schemas/fleet-control.openapi.yaml): `bad_request`,
 * `too_large`, `internal`, and 409 `conflict`; its model's errors map to 400, 404 and 409.
 */
const FLEET_DIALECT: ControlDialect = {
  codes: { invalid_request: 'bad_request', payload_too_large: 'too_large', internal_error: 'internal' },
  classify(error) {
    if (error instanceof BadRequestError || error instanceof SyntaxError || error instanceof TypeError) {
      return { status: 400, error: 'bad_request', message: error.message };
    }
    if (error instanceof NotFoundError) return { status: 404, error: 'not_found', message: error.message };
    if (error instanceof ConflictError) return { status: 409, error: 'conflict', message: error.message };
    return undefined;
  },
};

/**
 * The HTTP face of the controller's control plane: its route table on the shared control-plane
 * server (simulators/shared/http/control-server.ts). JSON in and out; 204 for operations without a
 * result; errors as `{error, message}` with 400, 404, 405, 409, 413. Bound to 127.0.0.1 by default;
 * with a token (required beyond loopback) every request must carry `Authorization: Bearer <token>`,
 * else 401.
 */
export async function startControlServer(
  control: FleetControl,
  options: { host: string; port: number; log?: RequestLogger; token?: string; sites?: SiteControlPlane },
): Promise<{ server: Server; url: string }> {
  const log = options.log;
  const { server, url } = await startSharedControlServer(fleetControlRoutes(control), {
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
