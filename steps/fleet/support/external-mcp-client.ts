import { spawn } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startBearerRelay } from './bearer-relay.ts';
import { type ToolOutcome, toolValue } from './mcp-client.ts';

/** The MCP client the project did not write, fetched by npx when the scenarios run. */
export const EXTERNAL_MCP_CLIENT = '@modelcontextprotocol/inspector@0.15.0';
/** The environment variable that switches the external-client scenarios on. */
export const EXTERNAL_MCP_SWITCH = 'PBX_CONFORMANCE_EXTERNAL_MCP';
/** Real time for one run, the first of which may download the client. */
export const EXTERNAL_MCP_TIMEOUT_MS = 300_000;
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** Why the external client cannot run here, or `null` when it is switched on. */
export function externalClientDisabled(env: NodeJS.ProcessEnv = process.env): string | null {
  return env[EXTERNAL_MCP_SWITCH] === '1'
    ? null
    : `the external MCP client (${EXTERNAL_MCP_CLIENT} --cli via npx) runs only with ${EXTERNAL_MCP_SWITCH}=1`;
}

export interface InspectorRun {
  /** The command line without the token (it never appears there: the relay adds it). */
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** A run of the external client that failed for reasons of the harness (download, spawn, timeout). */
export class ExternalClientError extends Error {
  override name = 'ExternalClientError';
}

/**
 * Runs `npx --yes @modelcontextprotocol/inspector@0.15.0 --cli <relay>/mcp --transport http <args>`
 * against the MCP endpoint, through a Bearer relay (bearer-relay.ts), and returns what it printed.
 */
export async function runInspector(
  mcpUrl: string,
  token: string,
  args: readonly string[],
): Promise<InspectorRun> {
  const relay = await startBearerRelay(mcpUrl, token);
  try {
    const argv = ['--yes', EXTERNAL_MCP_CLIENT, '--cli', relay.url, '--transport', 'http', ...args];
    const command = `npx ${argv.join(' ')}`;
    return await new Promise<InspectorRun>((resolve, reject) => {
      const child = spawn('npx', argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      const collect = (into: Buffer[]) => (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_OUTPUT_BYTES) into.push(chunk);
      };
      child.stdout.on('data', collect(out));
      child.stderr.on('data', collect(err));
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        reject(new ExternalClientError(`${command} did not finish within ${EXTERNAL_MCP_TIMEOUT_MS} ms`));
      }, EXTERNAL_MCP_TIMEOUT_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new ExternalClientError(`${command} could not start: ${error.message}`));
      });
      child.on('close', (exitCode) => {
        clearTimeout(timer);
        resolve({
          command,
          exitCode,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        });
      });
    });
  } finally {
    await relay.close();
  }
}

/**
 * A tool call's outcome from an inspector run: the printed result, or `refused` when the client
 * reports that the call failed (MCP-UNSPEC-FAILED-RESULT). Anything else (npm could not fetch the
 * client, no connection) is a harness error.
 */
export function inspectorOutcome(run: InspectorRun): ToolOutcome {
  if (run.exitCode === 0) {
    let result: CallToolResult;
    try {
      result = JSON.parse(run.stdout) as CallToolResult;
    } catch {
      throw new ExternalClientError(`${run.command} printed no JSON: ${run.stdout.slice(0, 300)}`);
    }
    return { kind: 'result', isError: result.isError === true, value: toolValue(result), result };
  }
  if (/Failed to call tool/.test(run.stderr)) {
    // The inspector prints this once the session is open; it does not say how the call failed.
    return {
      kind: 'refused',
      via: 'unknown',
      stage: 'call',
      code: undefined,
      message: run.stderr.trim().slice(0, 1000),
    };
  }
  throw new ExternalClientError(
    `${run.command} ended with ${run.exitCode}: ${run.stderr.trim().slice(-1000) || run.stdout.slice(0, 300)}`,
  );
}
