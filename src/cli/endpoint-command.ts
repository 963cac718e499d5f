import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CustomerEndpointHandle, EndpointConfig } from '../../simulators/customer-endpoint/index.ts';
import { isLoopbackHost } from '../../simulators/shared/index.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';
import { parsePort } from './parse-options.ts';
import { stopRequested } from './stop-requested.ts';

export interface EndpointOptions {
  port?: number;
  host: string;
  controlPort?: number;
  controlHost: string;
  tls?: boolean;
  certHost?: string[];
  config?: string;
  json?: boolean;
}

/** What `endpoint --json` prints as its first stdout line. */
export interface EndpointDescription {
  base: string;
  control: string;
  certificate: string | null;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `endpoint`: runs the recording customer endpoint with its HTTP control plane until interrupted
 * (issue 5, section 3). A real PBX's search provider is pointed at the base URL; the control plane
 * (schemas/customer-endpoint-control.openapi.yaml) sets the answers and reads back exactly what the
 * PBX sent, so the RESOLVER client clauses can be checked against a real implementation.
 */
export function registerEndpoint(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  program
    .command('endpoint')
    .description('run the recording customer endpoint (for certifying a PBX web resolver) until interrupted')
    .option('--port <n>', 'port of the endpoint (default: any free port)', parsePort)
    .option('--host <address>', 'address the endpoint binds (one the PBX can reach)', '127.0.0.1')
    .option('--control-port <n>', 'port of the control plane (default: any free port)', parsePort)
    .option(
      '--control-host <address>',
      'loopback address the control plane binds (it has no token, so it stays on 127.x)',
      '127.0.0.1',
    )
    .option('--tls', 'serve HTTPS with a fresh self-signed certificate (needs openssl)')
    .option('--cert-host <name>', 'a name or address in that certificate (repeatable)', collect)
    .option('--config <file>', 'initial answer configuration (JSON, the Config schema of the control plane)')
    .option('--json', 'print {base, control, certificate} as the first stdout line')
    .action(async (options: EndpointOptions) => {
      done(await endpointCommand(options, io));
    });
}

/** Runs the endpoint until `io.signal` aborts (or SIGINT/SIGTERM); returns the exit code. */
export async function endpointCommand(options: EndpointOptions, io: CliIo): Promise<number> {
  // The endpoint's control plane takes no token (unlike simulate's), so it never leaves loopback;
  // the shared refusal would name simulate's --control-token (issue 20, item 16).
  if (!isLoopbackHost(options.controlHost))
    throw new HarnessError(
      `--control-host ${options.controlHost} is not a loopback address: the endpoint's control plane has no token, so it stays on 127.x (the PBX under test needs only --host)`,
    );
  const config = options.config === undefined ? undefined : await readConfig(resolve(io.cwd, options.config));
  const { start } = await import('../../simulators/customer-endpoint/index.ts');
  let handle: CustomerEndpointHandle;
  try {
    handle = await start({
      host: options.host,
      port: options.port ?? 0,
      ...(options.tls ? { tls: { hosts: certificateHosts(options) } } : {}),
      ...(config ? { config } : {}),
      controlPlane: { host: options.controlHost, port: options.controlPort ?? 0 },
    });
  } catch (error) {
    throw startError(error);
  }
  try {
    const description: EndpointDescription = {
      base: handle.urls.base,
      control: handle.urls.control ?? '',
      certificate: handle.certificate,
    };
    const info = options.json ? io.stderr : io.stdout;
    // Listening for the stop before saying it runs: a SIGTERM right after that stops it cleanly.
    const stop = stopRequested(io.signal);
    if (options.json) io.stdout.write(`${JSON.stringify(description)}\n`);
    info.write(banner(description, options));
    await stop;
    info.write('stopping the customer endpoint\n');
  } finally {
    await handle.close();
  }
  return 0;
}

async function readConfig(path: string): Promise<EndpointConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessError(
      `cannot read the configuration ${path}: ${(error as NodeJS.ErrnoException).code ?? oneLineMessage(error)}`,
    );
  }
  const { parseWireConfig } = await import('../../simulators/customer-endpoint/index.ts');
  try {
    return parseWireConfig(JSON.parse(text));
  } catch (error) {
    throw new HarnessError(`the configuration ${path} is not valid: ${oneLineMessage(error)}`);
  }
}

/** The certificate names the bound address, unless it is a wildcard, plus the usual loopback names. */
function certificateHosts(options: EndpointOptions): string[] {
  const wildcard = options.host === '0.0.0.0' || options.host === '::';
  return [
    ...new Set([...(options.certHost ?? []), ...(wildcard ? [] : [options.host]), 'localhost', '127.0.0.1']),
  ];
}

function banner(description: EndpointDescription, options: EndpointOptions): string {
  const lines = [
    'Recording customer endpoint running',
    `  endpoint (point the provider URL here):  ${description.base}/lookup?tel={tel}`,
    `  control plane:                          ${description.control}`,
    '    GET /requests?since=N   what the PBX sent     PUT /config, /routes/{path}, /fallback   answers',
    '    POST /requests/wait      wait for requests     POST /reset                                start over',
    '    (schemas/customer-endpoint-control.openapi.yaml)',
  ];
  if (options.host === '0.0.0.0' || options.host === '::')
    lines.push('  it listens on every interface: use an address of this machine that the PBX can reach');
  if (description.certificate)
    lines.push(
      '  server certificate (self-signed; trust it or switch certificate checking off):',
      description.certificate.trim(),
    );
  lines.push('Press Ctrl-C to stop.', '');
  return lines.join('\n');
}

function startError(error: unknown): HarnessError {
  const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE')
    return new HarnessError(`port ${e.port ?? '?'} on ${e.address ?? '?'} is already in use`);
  if (e?.code === 'EADDRNOTAVAIL')
    return new HarnessError(`cannot bind ${e.address ?? '?'}: address not available`);
  return new HarnessError(`the customer endpoint did not start: ${oneLineMessage(error)}`);
}
