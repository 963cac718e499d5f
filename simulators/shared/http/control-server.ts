import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { serveOperations } from '../control/serve-operations.ts';
import { CONTROL_UNAUTHORIZED, controlTokenCheckFor } from '../control-token.ts';
import {
  type ControlDialect,
  createControlDispatcher,
  errorResponse,
  type RawControlResponse,
} from './control-dispatch.ts';
import type { ControlRoute } from './control-route.ts';
import { httpUrl, listen } from './listen.ts';
import { isBodyTooLarge, readBody } from './read-body.ts';
import type { SiteControlPlane } from './site-control-plane.ts';
import { boundSlowClients, HTTP_SERVER_OPTIONS } from './slow-clients.ts';

/** Request bodies beyond this size get 413 (a state overlay or a user list is a few KiB). */
export const MAX_CONTROL_BODY_BYTES = 1024 * 1024;

export interface ControlServerOptions {
  host: string;
  port: number;
  /** The bearer token a control plane beyond loopback requires (control-token.ts). */
  token?: string;
  maxBodyBytes?: number;
  /** Real-time limit for a whole request to arrive (default 30 s). */
  requestTimeoutMs?: number;
  /** How this plane words its failures (codes, its own errors). */
  dialect?: ControlDialect;
  /** PBXs whose control routes this plane also serves at `/pbx/{siteId}/…` (issue 22). */
  sites?: SiteControlPlane;
  /** Called once per answered request (method, path without query, status). */
  log?: (entry: { method: string; path: string; status: number }) => void;
  /** Listener-level handlers beside the operations (the console at `/console`, issue 32). */
  mounts?: readonly RawMount[];
}

/**
 * A handler the control listener serves beside its operations, for what is not a JSON operation
 * (the console's page and assets). `open` paths are served without the token (a page that then
 * asks for it); every other request under `prefix` passes the same token and cross-site checks
 * as an operation.
 */
export interface RawMount {
  /** A path prefix, e.g. `/console`; the mount gets the prefix itself and everything below it. */
  prefix: string;
  /** Paths below the prefix served without the token (static assets); default none. */
  open?: (path: string) => boolean;
  /** Answers the request; the body is not read yet. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/**
 * The error codes the listener answers with itself, before any operation runs: 401 without the
 * token a plane beyond loopback needs (control-token.ts), 403 for a cross-site request (CSRF). Every
 * plane's generated OpenAPI document lists them in its error codes.
 */
export const LISTENER_ERROR_CODES = ['unauthorized', 'cross_site_request'] as const;

/** Sent every so often on an open event stream, so idle proxies and sockets keep it open. */
const STREAM_HEARTBEAT_MS = 15_000;

export interface ControlServer {
  server: Server;
  url: string;
  /** The table it dispatches, so a test can hold it against the OpenAPI document. */
  routes: readonly ControlRoute[];
  close(): Promise<void>;
}

/**
 * The HTTP listener of every control plane (the PBX's, the fleet controller's, the customer
 * endpoint's): a thin adapter around the socket-free dispatcher of `routes`. JSON in and out;
 * bodies bounded (413 beyond `maxBodyBytes`, then the connection closes); header and request
 * timeouts bound slow clients; beyond loopback every request needs the bearer token (401
 * otherwise); a malformed request gets an error answer, never a crash.
 */
export async function startControlServer(
  routes: readonly ControlRoute[],
  options: ControlServerOptions,
): Promise<ControlServer> {
  // A plane that serves PBXs at /pbx/{siteId} also answers which ones (`GET /pbx`).
  const table = options.sites ? [...routes, ...(await siteRoutes(options.sites))] : routes;
  const dispatch = createControlDispatcher(table, options.dialect);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_CONTROL_BODY_BYTES;
  const tokenCheck = controlTokenCheckFor(options.host, options.token);
  const tooLarge = options.dialect?.codes?.payload_too_large ?? 'payload_too_large';
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const streams = new Set<() => void>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const path = pathOf(req.url);
    const mount = options.mounts?.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    const open = mount?.open?.(path) === true && (req.method === 'GET' || req.method === 'HEAD');
    if (!open && tokenCheck && !tokenCheck.allows(req.headers.authorization)) {
      req.resume();
      return send(res, CONTROL_UNAUTHORIZED);
    }
    const crossSite = crossSiteRefusal(req);
    if (crossSite) {
      req.resume();
      return send(res, crossSite);
    }
    if (mount) {
      await mount.handle(req, res, path);
      return res.statusCode;
    }
    let body: Buffer;
    try {
      body = await readBody(req, maxBodyBytes, requestTimeoutMs);
    } catch (error) {
      if (!isBodyTooLarge(error)) {
        res.destroy();
        return 0;
      }
      // Answer, and drop the connection once the answer is out (the rest of the body is unread).
      res.once('finish', () => req.socket.destroySoon());
      return send(res, errorResponse(413, tooLarge, `the request body exceeds ${maxBodyBytes} bytes`), true);
    }
    const request = { method: req.method ?? 'GET', url: req.url ?? '/', body };
    const answer = await (options.sites?.dispatch(request) ?? dispatch(request));
    if (answer.stream) return openStream(req, res, answer, streams);
    return send(res, answer);
  };
  const server = createServer(HTTP_SERVER_OPTIONS, (req, res) => {
    req.on('error', () => res.destroy());
    handle(req, res).then(
      (status) => {
        if (status > 0) options.log?.({ method: req.method ?? '', path: pathOf(req.url), status });
      },
      () => res.destroy(),
    );
  });
  boundSlowClients(server, requestTimeoutMs);
  server.maxHeadersCount = 100;
  const { port } = await listen(server, { port: options.port, host: options.host });
  return {
    server,
    url: httpUrl(options.host, port),
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of [...streams]) end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, answer: RawControlResponse, close = false): number {
  if (res.headersSent || res.destroyed) return 0;
  const headers = close ? { ...answer.headers, connection: 'close' } : answer.headers;
  res.writeHead(answer.status, headers);
  res.end(answer.body);
  return answer.status;
}

/**
 * CSRF: a browser marks every request it sends on behalf of another site. A state-changing request
 * (anything but GET and HEAD) whose `Sec-Fetch-Site` says another site, or whose `Origin` is not
 * this plane's own, is refused with 403 before any effect, whatever its token; so a page elsewhere
 * cannot drive a simulator on loopback through the user's browser. Clients that are not browsers
 * (curl, the typed client) send neither header and are unaffected.
 */
function crossSiteRefusal(req: IncomingMessage): RawControlResponse | undefined {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const foreignOrigin = origin !== undefined && !sameOrigin(origin, req.headers.host);
  if (site === 'cross-site' || site === 'same-site' || foreignOrigin)
    return errorResponse(
      403,
      LISTENER_ERROR_CODES[1],
      'a request from another site is refused (CSRF protection)',
    );
  return undefined;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Writes a streaming operation's events as Server-Sent Events until the client or the plane goes. */
function openStream(
  req: IncomingMessage,
  res: ServerResponse,
  answer: RawControlResponse,
  streams: Set<() => void>,
): number {
  res.writeHead(answer.status, answer.headers);
  res.write(': open\n\n');
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), STREAM_HEARTBEAT_MS);
  const unsubscribe = answer.stream!.subscribe((name, data) => {
    res.write(`event: ${name.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(data)}\n\n`);
  });
  const end = () => {
    if (!streams.delete(end)) return;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  streams.add(end);
  req.socket.setTimeout(0);
  res.on('close', end);
  return answer.status;
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}

/** `GET /pbx` of a plane serving PBXs, loaded when a plane has sites (it keeps zod off the CLI's start-up). */
async function siteRoutes(sites: SiteControlPlane): Promise<ControlRoute[]> {
  const { SITE_OPERATIONS, siteEffects } = await import('../control/site-operations.ts');
  return serveOperations(SITE_OPERATIONS, siteEffects(sites));
}
