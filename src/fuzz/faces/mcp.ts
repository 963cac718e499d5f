import fc from 'fast-check';
import type { FuzzGenerator, FuzzTargetInfo, LivenessProbe } from '../types.ts';
import { hostPort, httpRequest, type WireRequest } from '../wire.ts';
import { baseFinding, mismatch, nastyText, randomBytes } from './common.ts';

type Mcp = NonNullable<FuzzTargetInfo['mcp']>;

export interface McpInput {
  token: string | null;
  accept: string;
  body: Buffer;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
};

function toRequest(m: Mcp, input: McpInput): WireRequest {
  const { host, port } = hostPort(m.mcpUrl);
  const headers: Array<[string, string]> = [
    ['Content-Type', 'application/json'],
    ['Accept', input.accept],
  ];
  if (input.token !== null) headers.push(['Authorization', `Bearer ${input.token}`]);
  return { host, port, bytes: httpRequest('POST', new URL(m.mcpUrl).pathname, headers, input.body) };
}

const jsonRpcish = fc.oneof(
  fc.record({
    jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.object()),
    method: fc.oneof(
      fc.constantFrom(
        'initialize',
        'tools/list',
        'tools/call',
        'resources/list',
        'ping',
        'notifications/initialized',
        '',
      ),
      nastyText(30),
    ),
    params: fc.oneof(
      fc.object(),
      fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
      fc.constant(undefined),
    ),
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.integer(),
    method: fc.constant('tools/call'),
    params: fc.record({
      name: fc.oneof(fc.constantFrom('list_sites', 'acknowledge', 'list_attention'), nastyText(20)),
      arguments: fc.anything({ maxDepth: 2 }),
    }),
  }),
);

/** The MCP generators: malformed JSON-RPC over Streamable HTTP (the spec names no error answers). */
export function mcpGenerators(m: Mcp): FuzzGenerator<McpInput>[] {
  return [
    {
      face: 'mcp',
      id: 'mcp-malformed',
      title:
        'MCP: malformed JSON, JSON-RPC with wrong fields, batches and odd Accept headers get an answer within the bound, never a 5xx',
      clauses: [],
      weight: 4,
      arbitrary: fc.record({
        token: fc.constant(m.token),
        accept: fc.constantFrom(
          'application/json, text/event-stream',
          'application/json',
          'text/event-stream',
          '*/*',
          '',
        ),
        body: fc.oneof(
          jsonRpcish.map((v) => Buffer.from(JSON.stringify(v))),
          fc.array(jsonRpcish, { maxLength: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
          fc.json().map((t) => Buffer.from(t)),
          randomBytes(200),
          fc.constantFrom('', '{', '[', '{"jsonrpc":"2.0"', 'null').map((t) => Buffer.from(t)),
        ),
      }),
      request: (input) => toRequest(m, input),
      check: (_, answer) => baseFinding(answer),
    },
    {
      face: 'mcp',
      id: 'mcp-bad-token',
      title: 'MCP: a missing or unknown bearer token is never accepted (no 2xx, no 5xx)',
      clauses: [],
      weight: 1,
      arbitrary: fc.record({
        token: fc.oneof(
          fc.constant(null),
          fc.stringMatching(/^[!-~]{1,60}$/).filter((t) => t !== m.token),
        ),
        accept: fc.constant('application/json, text/event-stream'),
        body: fc.constant(Buffer.from(JSON.stringify(INITIALIZE))),
      }),
      request: (input) => toRequest(m, input),
      check: (_, answer) => {
        const base = baseFinding(answer);
        if (base) return base;
        const status = answer.http?.status ?? 0;
        return status >= 200 && status < 300 ? mismatch(`HTTP ${status} for an unknown token`) : null;
      },
    },
  ];
}

export function mcpProbe(m: Mcp): LivenessProbe {
  return {
    face: 'mcp',
    request: () =>
      toRequest(m, {
        token: m.token,
        accept: 'application/json, text/event-stream',
        body: Buffer.from(JSON.stringify(INITIALIZE)),
      }),
    ok: (answer) => answer.http?.status === 200,
  };
}
