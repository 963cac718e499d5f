import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** Real-time limit of one MCP request. */
export const MCP_TIMEOUT_MS = 15_000;

/**
 * What became of one tool call. MCP-UNSPEC-FAILED-RESULT: the shape of a failed result is not
 * shown, so a call *fails* when it ends in a tool result with `isError`, in a JSON-RPC error, or in
 * an HTTP error status of the transport; all three count alike. A `refused` outcome says where it
 * came from (`via`: a JSON-RPC error or an HTTP status) and when (`stage`: while the session was
 * opened, or on the `tools/call` itself).
 */
export type ToolOutcome =
  | { kind: 'result'; isError: boolean; value: unknown; result: CallToolResult }
  | {
      kind: 'refused';
      /** `unknown`: a client that does not tell (the external inspector). */
      via: 'json-rpc' | 'http' | 'unknown';
      stage: 'connect' | 'call';
      code: number | undefined;
      message: string;
    };

export function toolFailed(outcome: ToolOutcome): boolean {
  return outcome.kind === 'refused' || outcome.isError;
}

/**
 * Whether the server refused *the call* rather than turning the caller away
 * (MCP-ACK-TOKEN-LEVEL, MCP-ACK-ACCOUNT-LEVEL): a tool result with `isError`, a JSON-RPC error on
 * `tools/call`, or an HTTP 403 on `tools/call` (the MCP authorization's answer for a scope a token
 * lacks) after the same token opened the session. A failure while opening the session, and any other
 * HTTP status (a 401 for an unknown or wrong token above all), is not a refusal of the call.
 */
export function callRefused(outcome: ToolOutcome): boolean {
  if (outcome.kind === 'result') return outcome.isError;
  return outcome.stage === 'call' && (outcome.via === 'json-rpc' || outcome.code === 403);
}

/**
 * The value a tool returned: its `structuredContent`, or else the JSON of its first text content
 * (MCP-UNSPEC-SITE-FIELDS: where the data sits is not stated; both are the usual places).
 */
export function toolValue(result: CallToolResult): unknown {
  if (result.structuredContent && typeof result.structuredContent === 'object')
    return result.structuredContent;
  for (const item of result.content ?? []) {
    if (item.type !== 'text') continue;
    try {
      return JSON.parse(item.text);
    } catch {
      return item.text;
    }
  }
  return undefined;
}

/**
 * Opens an MCP session with the official SDK client over Streamable HTTP, authenticated with
 * `Authorization: Bearer <token>` (MCP-UNSPEC-TRANSPORT: the simulator's and the target file's
 * choice), runs `use`, and closes it.
 */
async function withClient<T>(url: string, token: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'pbx-conformance', version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport, { timeout: MCP_TIMEOUT_MS });
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/** Lists the tools. */
export function listTools(url: string, token: string): Promise<Tool[]> {
  return withClient(
    url,
    token,
    async (client) => (await client.listTools(undefined, { timeout: MCP_TIMEOUT_MS })).tools,
  );
}

/**
 * Calls one tool in a fresh session. A JSON-RPC error or an HTTP error status is a `refused`
 * outcome; anything else that goes wrong (no connection, timeout) is a harness error and throws.
 */
export async function callTool(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  let stage: 'connect' | 'call' = 'connect';
  try {
    return await withClient(url, token, async (client) => {
      stage = 'call';
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: MCP_TIMEOUT_MS,
      })) as CallToolResult;
      return { kind: 'result', isError: result.isError === true, value: toolValue(result), result };
    });
  } catch (error) {
    const transportTrouble = [ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed] as number[];
    if (error instanceof McpError && !transportTrouble.includes(error.code)) {
      return { kind: 'refused', via: 'json-rpc', stage, code: error.code, message: error.message };
    }
    if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400) {
      return { kind: 'refused', via: 'http', stage, code: error.code, message: error.message };
    }
    throw error;
  }
}
