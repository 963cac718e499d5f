import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  createControlDispatcher,
  errorResponse,
  type RawControlResponse,
} from '../shared/http/control-dispatch.ts';
import type { ControlRoute } from '../shared/http/control-route.ts';
import { listen } from '../shared/http/listen.ts';

/** Request bodies beyond this get 413: a configuration with a 1 MiB body in base64 still fits. */
export const MAX_ENDPOINT_CONTROL_BODY_BYTES = 2 * 1024 * 1024;

export interface EndpointControlServer {
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ENDPOINT_CONTROL_BODY_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve(null);
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
  res.writeHead(answer.status, close ? { ...answer.headers, connection: 'close' } : answer.headers);
  res.end(answer.body);
}

/**
 * The listener of the customer endpoint's control plane: a thin adapter around the socket-free
 * dispatcher of the PBX control plane (same error bodies: 400 `invalid_request`, 404, 405, 413,
 * 500), with bounded bodies and header/request timeouts.
 */
export async function startEndpointControlServer(
  routes: readonly ControlRoute[],
  options: { host: string; port: number },
): Promise<EndpointControlServer> {
  const dispatch = createControlDispatcher(routes);
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.on('error', () => res.destroy());
    readBody(req)
      .then(async (body) => {
        if (body === null) {
          res.once('finish', () => req.socket.destroySoon());
          send(
            res,
            errorResponse(
              413,
              'payload_too_large',
              `the request body exceeds ${MAX_ENDPOINT_CONTROL_BODY_BYTES} bytes`,
            ),
            true,
          );
          return;
        }
        send(res, await dispatch({ method: req.method ?? 'GET', url: req.url ?? '/', body }));
      })
      .catch(() => res.destroy());
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 90_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await listen(server, { port: options.port, host: options.host });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
