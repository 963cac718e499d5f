import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CONTROL_UNAUTHORIZED, controlTokenCheckFor } from '../../shared/control-token.ts';
import {
  createControlDispatcher,
  errorResponse,
  type RawControlResponse,
} from '../../shared/http/control-dispatch.ts';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import { listen } from '../../shared/http/listen.ts';
import type { PbxControl } from './control-api.ts';
import { controlRoutes } from './control-routes.ts';

/** Request bodies beyond this size get 413 (a state overlay or user list is a few KiB). */
export const MAX_CONTROL_BODY_BYTES = 1024 * 1024;

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

class BodyTooLarge extends Error {}

/** Reads the body into memory up to `MAX_CONTROL_BODY_BYTES`; rejects with `BodyTooLarge` beyond. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_CONTROL_BODY_BYTES) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CONTROL_BODY_BYTES) {
        req.off('data', onData);
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function send(res: ServerResponse, answer: RawControlResponse, close = false): void {
  if (res.headersSent || res.destroyed) return;
  const headers = close ? { ...answer.headers, connection: 'close' } : answer.headers;
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * The HTTP form of the PBX control plane (schemas/pbx-control.openapi.yaml): a thin listener
 * around the socket-free dispatcher. JSON in and out; bodies bounded (413 beyond 1 MiB); header and
 * request timeouts bound slow clients; a malformed request gets an error answer, never a crash.
 * `routes` is the whole table it dispatches (core and extra groups), so a test can hold it against
 * the OpenAPI documents.
 */
export async function createControlServer(
  control: PbxControl,
  options: ControlServerOptions,
): Promise<{ server: Server; url: string; routes: readonly ControlRoute[] }> {
  const routes = [...controlRoutes(control), ...(options.extraRoutes ?? [])];
  const dispatch = createControlDispatcher(routes);
  const tokenCheck = controlTokenCheckFor(options.host, options.token);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (tokenCheck && !tokenCheck.allows(req.headers.authorization)) {
      req.resume();
      send(res, CONTROL_UNAUTHORIZED);
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) {
        res.destroy();
        return;
      }
      // Stop reading, answer, and drop the connection once the answer is out.
      req.pause();
      res.once('finish', () => req.socket.destroySoon());
      send(
        res,
        errorResponse(413, 'payload_too_large', `the request body exceeds ${MAX_CONTROL_BODY_BYTES} bytes`),
        true,
      );
      return;
    }
    send(res, await dispatch({ method: req.method ?? 'GET', url: req.url ?? '/', body }));
  };
  const server = createServer((req, res) => {
    req.on('error', () => res.destroy());
    handle(req, res).catch(() => res.destroy());
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  const { port } = await listen(server, { port: options.port, host: options.host });
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { server, url: `http://${host}:${port}`, routes };
}
