import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isBodyTooLarge, readBody } from '../../shared/http/read-body.ts';
import type { RequestLogger } from '../api/api-core.ts';
import type { Authenticator } from '../model/authenticator.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { createFleetMcpServer } from './fleet-mcp-server.ts';

/** The MCP endpoint path on the controller's API listener (MCP-UNSPEC-TRANSPORT). */
export const MCP_PATH = '/mcp';

const MAX_MCP_BODY_BYTES = 1024 * 1024;

/**
 * MCP over Streamable HTTP at `{controller_url}/mcp`, stateless (no session id; every POST gets
 * a fresh McpServer and transport) with JSON responses.
 *
 * MCP-UNSPEC-TRANSPORT: the caller authenticates with `Authorization: Bearer <access token>`; a
 * missing or unknown token is answered 401 with `WWW-Authenticate: Bearer` before any JSON-RPC.
 * Tokens are issued by the control plane (`POST /tokens`), each with a level (`read` or
 * `read-write`) on top of the account's level. GET and DELETE are answered 405 (no server-sent
 * stream and no sessions in stateless mode).
 */
export function createMcpHandler(state: FleetState, auth: Authenticator, log: RequestLogger = () => {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const finish = (status: number, accountId?: string) => {
      const entry: Parameters<RequestLogger>[0] = { face: 'mcp', method: req.method ?? '', path, status };
      if (accountId) entry.accountId = accountId;
      log(entry);
    };
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }),
      );
      finish(405);
      return;
    }
    const caller = auth.bearer(req.headers.authorization);
    if (!caller) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="fleet-mcp"', 'content-length': 0 }).end();
      finish(401);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse((await readBody(req, MAX_MCP_BODY_BYTES)).toString('utf8'));
    } catch (error) {
      const status = isBodyTooLarge(error) ? 413 : 400;
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
      finish(status, caller.account.id);
      return;
    }
    const server = createFleetMcpServer(state, { accountId: caller.account.id, tokenId: caller.token.id });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
      finish(res.statusCode, caller.account.id);
    });
    // The token id stands in for the secret: the SDK's AuthInfo never holds the clear token here.
    const authInfo: AuthInfo = {
      token: caller.token.id,
      clientId: caller.account.id,
      scopes: caller.token.level === 'read-write' ? ['read', 'write'] : ['read'],
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(Object.assign(req, { auth: authInfo }), res, parsed);
    } catch {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
        );
      }
    }
  };
}
