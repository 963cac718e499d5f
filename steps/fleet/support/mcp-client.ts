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
 * an HTTP error status of the transport; all three count alike.
 */
export type ToolOutcome =
  | { kind: 'result'; isError: boolean; value: unknown; result: CallToolResult }
  | { kind: 'refused'; code: number | undefined; message: string };

export function toolFailed(outcome: ToolOutcome): boolean {
  return outcome.kind === 'refused' || outcome.isError;
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
  try {
    return await withClient(url, token, async (client) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: MCP_TIMEOUT_MS,
      })) as CallToolResult;
      return { kind: 'result', isError: result.isError === true, value: toolValue(result), result };
    });
  } catch (error) {
    const transportTrouble = [ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed] as number[];
    if (error instanceof McpError && !transportTrouble.includes(error.code)) {
      return { kind: 'refused', code: error.code, message: error.message };
    }
    if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400) {
      return { kind: 'refused', code: error.code, message: error.message };
    }
    throw error;
  }
}
