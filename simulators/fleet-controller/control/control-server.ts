import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CONTROL_UNAUTHORIZED, controlTokenCheckFor } from '../../shared/control-token.ts';
import { listen } from '../../shared/http/listen.ts';
import type { RequestLogger } from '../api/api-core.ts';
import { BodyTooLargeError, readBody } from '../api/read-body.ts';
import { ConflictError, NotFoundError } from '../model/fleet-errors.ts';
import type { FleetControl } from './fleet-control.ts';
import { BadRequestError } from './in-process-control.ts';

const MAX_CONTROL_BODY_BYTES = 1024 * 1024;

type Handler = (control: FleetControl, params: Record<string, string>, body: unknown) => Promise<unknown>;

/** One control-plane operation; `path` is the OpenAPI path template of schemas/fleet-control.openapi.yaml. */
export interface FleetControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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

interface CompiledRoute {
  route: FleetControlRoute;
  pattern: RegExp;
  names: string[];
}

const COMPILED: CompiledRoute[] = FLEET_CONTROL_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
});

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * The HTTP face of the controller's control plane: JSON in and out; 204 for operations without a
 * result; errors as `{error, message}` with 400, 404, 409. Bound to 127.0.0.1 by default; with a
 * token (required beyond loopback) every request must carry `Authorization: Bearer <token>`, else 401.
 */
export async function startControlServer(
  control: FleetControl,
  options: { host: string; port: number; log?: RequestLogger; token?: string },
): Promise<{ server: Server; url: string }> {
  const log = options.log ?? (() => {});
  // Required beyond loopback (issue 12, defect 7); kept as a hash, compared in constant time.
  const tokenCheck = controlTokenCheckFor(options.host, options.token);
  const server = createServer((req, res) => {
    if (tokenCheck && !tokenCheck.allows(req.headers.authorization)) {
      req.resume();
      res.writeHead(CONTROL_UNAUTHORIZED.status, CONTROL_UNAUTHORIZED.headers).end(CONTROL_UNAUTHORIZED.body);
      log({
        face: 'control',
        method: req.method ?? '',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        status: 401,
      });
      return;
    }
    void handle(control, req, res).then((status) => {
      log({ face: 'control', method: req.method ?? '', path: (req.url ?? '/').split('?')[0] ?? '/', status });
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const { port } = await listen(server, { port: options.port, host: options.host });
  return { server, url: `http://${options.host}:${port}` };
}

async function handle(control: FleetControl, req: IncomingMessage, res: ServerResponse): Promise<number> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const compiled = COMPILED.find((r) => r.route.method === req.method && r.pattern.test(path));
  if (!compiled) {
    req.resume();
    const known = COMPILED.some((r) => r.pattern.test(path));
    return send(res, known ? 405 : 404, {
      error: known ? 'method_not_allowed' : 'not_found',
      message: `no route ${req.method} ${path}`,
    });
  }
  try {
    const raw = await readBody(req, MAX_CONTROL_BODY_BYTES);
    const body: unknown = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
    const values = (compiled.pattern.exec(path) ?? []).slice(1).map((p) => decodeURIComponent(p));
    const params = Object.fromEntries(compiled.names.map((name, i) => [name, values[i] ?? '']));
    const result = await compiled.route.handle(control, params, body);
    return result === undefined ? send(res, 204) : send(res, 200, result);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return send(res, 413, { error: 'too_large', message: 'body too large' });
    if (error instanceof SyntaxError || error instanceof URIError || error instanceof BadRequestError) {
      return send(res, 400, { error: 'bad_request', message: error.message });
    }
    if (error instanceof NotFoundError) return send(res, 404, { error: 'not_found', message: error.message });
    if (error instanceof ConflictError) return send(res, 409, { error: 'conflict', message: error.message });
    if (error instanceof TypeError) return send(res, 400, { error: 'bad_request', message: error.message });
    return send(res, 500, {
      error: 'internal',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

function send(res: ServerResponse, status: number, value?: unknown): number {
  if (value === undefined) {
    res.writeHead(status, { 'content-length': 0 }).end();
  } else {
    const body = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }
  return status;
}
