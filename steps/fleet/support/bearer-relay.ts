import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher, request } from 'undici';

/** Real-time limit of one relayed exchange. */
const RELAY_TIMEOUT_MS = 30_000;

/** Headers of one connection, not of the request: each side sets its own (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

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
  const agent = new Agent({ headersTimeout: RELAY_TIMEOUT_MS, bodyTimeout: RELAY_TIMEOUT_MS });
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['authorization'] = `Bearer ${token}`;
    const method = req.method ?? 'GET';
    request(upstream, {
      dispatcher: agent,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: method === 'GET' || method === 'HEAD' ? null : req,
    }).then(
      (answer) => {
        const back: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
        res.writeHead(answer.statusCode, back);
        answer.body.pipe(res);
        answer.body.on('error', () => res.destroy());
      },
      () => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      },
    );
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
      }).then(() => agent.destroy()),
  };
}
