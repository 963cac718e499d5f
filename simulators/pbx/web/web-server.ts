import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { listen } from '../../shared/http/listen.ts';
import { boundSlowClients, HTTP_SERVER_OPTIONS } from '../../shared/http/slow-clients.ts';
import { NOT_FOUND_TEXT, type WebRoute } from '../../shared/http/web-route.ts';

export interface WebServerOptions {
  host: string;
  port: number;
  /** Taken at start; later changes to the array are not seen. */
  routes: WebRoute[];
  /** PEM key and certificate for HTTPS; plain HTTP when absent. */
  tls?: { key: string; cert: string } | undefined;
  /**
   * While this returns a number of seconds, the PBX is restarting (`RestartPbx`): every request is
   * answered `503 Service Unavailable` with `Retry-After` (docs/simulator.md, "PBX web server").
   */
  unavailableFor?: () => number | null;
}

/**
 * The PBX's own web server (the `{base_url}` of the specs): XML-RPC at `/xml-rpc`, the maintenance
 * API under `/fp/7ce0d8df/api/v1`, module downloads under `/downloads/moduledata/`.
 * Header and request timeouts bound slow clients.
 */
export async function startWebServer(options: WebServerOptions): Promise<{ server: Server; url: string }> {
  // The path has lost its query, so a prefix matches the path itself or what lies below it.
  const routes = options.routes.map((route) => ({ route, below: `${route.prefix}/` }));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const retryAfter = options.unavailableFor?.() ?? null;
    if (retryAfter !== null) {
      req.resume();
      res
        .writeHead(503, {
          'content-type': 'text/plain; charset=utf-8',
          'retry-after': String(Math.max(1, Math.ceil(retryAfter))),
          connection: 'close',
        })
        .end('restarting\n');
      return;
    }
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    for (const { route, below } of routes) {
      if (path === route.prefix || path.startsWith(below)) {
        route.handle(req, res);
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(NOT_FOUND_TEXT);
  };
  const server = options.tls
    ? createHttpsServer({ ...HTTP_SERVER_OPTIONS, ...options.tls }, handler)
    : createServer(HTTP_SERVER_OPTIONS, handler);
  boundSlowClients(server);
  server.maxHeadersCount = 200;
  const { port } = await listen(server, { port: options.port, host: options.host });
  const scheme = options.tls ? 'https' : 'http';
  return { server, url: `${scheme}://${options.host}:${port}` };
}
