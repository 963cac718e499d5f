import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

/** Real-time limit of one relayed exchange. */
const RELAY_TIMEOUT_MS = 30_000;

export interface BearerRelay {
  /** `http://127.0.0.1:<port>/mcp`: the path ends in `/mcp`, as the external client expects. */
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback HTTP relay in front of an MCP endpoint that adds `Authorization: Bearer <token>` to
 * every request and changes nothing else: it lets an MCP client without a header option (the MCP
 * Inspector CLI 0.15.0) talk to an endpoint that wants a Bearer token (MCP-UNSPEC-TRANSPORT). The
 * token never leaves the harness process except towards `target`.
 */
export async function startBearerRelay(target: string, token: string): Promise<BearerRelay> {
  const upstream = new URL(target);
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers, host: upstream.host, authorization: `Bearer ${token}` };
    const out = send(
      upstream,
      { method: req.method ?? 'GET', headers, timeout: RELAY_TIMEOUT_MS },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('timeout', () => out.destroy(new Error('relay timeout')));
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(out);
  });
  server.requestTimeout = RELAY_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
