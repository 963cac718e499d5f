import { createHash } from 'node:crypto';
import type { EndpointStatus } from '../../simulators/pbx/control/control-api.ts';
import type { PbxHandle, PbxStartOptions } from '../../simulators/pbx/index.ts';
import type { CliIo } from './cli-io.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from './default-credentials.ts';
import { HarnessError, oneLineMessage } from './harness-error.ts';
import { resolveScenarioOption } from './resolve-scenario-option.ts';
import { describeSimulatorTarget, type TargetDescription } from './target-description.ts';

export interface SimulateOptions {
  scenario?: string;
  port?: number;
  webPort?: number;
  controlPort?: number;
  host: string;
  clock: 'running' | 'frozen';
  json?: boolean;
}

/**
 * `simulate`: starts the simulated PBX, prints where its faces are and the XML-RPC credentials,
 * and runs until SIGINT/SIGTERM (or `io.signal`), then closes every listener. With `--json` the
 * first stdout line is a target description for `verify --target`; the rest goes to stderr.
 * A busy web or control port is a harness error with exit code 1; a busy data endpoint port
 * follows the spec instead (next port, or inactive) and is printed as a warning.
 */
export async function simulateCommand(options: SimulateOptions, io: CliIo): Promise<number> {
  const scenario = await resolveScenarioOption(options.scenario, io.cwd);
  const startOptions: PbxStartOptions = {
    ...(scenario === undefined ? {} : { scenario }),
    host: options.host,
    clock: { mode: options.clock },
    ...(options.port === undefined ? {} : { monitoringPort: options.port }),
    ...(options.webPort === undefined ? {} : { webPort: options.webPort }),
    ...(options.controlPort === undefined ? {} : { controlPort: options.controlPort }),
  };
  // Loaded on demand: `verify` against a remote target never needs the simulator.
  const { start } = await import('../../simulators/pbx/index.ts');
  if (typeof scenario === 'string') await requireKnownScenario(scenario);
  let handle: PbxHandle;
  try {
    handle = await start(startOptions);
  } catch (error) {
    throw startError(error, options.host);
  }
  try {
    const target = describe(handle, options.host);
    const info = options.json ? io.stderr : io.stdout;
    if (options.json) io.stdout.write(`${JSON.stringify(target)}\n`);
    info.write(formatBanner(target, options, handle.internals.endpoint.status()));
    // Spec behaviour, not an error: a busy data port moves the endpoint to the next port (with a
    // warning) or leaves it inactive when both are busy (monitoring-endpoint-and-xmlrpc.md).
    for (const warning of handle.internals.store.warnings()) info.write(`warning: ${warning}\n`);
    if (!hasUser(handle, DEFAULT_XMLRPC_CREDENTIALS.login, DEFAULT_XMLRPC_CREDENTIALS.password)) {
      info.write(
        `warning: this scenario has no XML-RPC user ${DEFAULT_XMLRPC_CREDENTIALS.login} with the default password; ` +
          'set pbx.xmlrpc.login and password in the target file\n',
      );
    }
    await stopRequested(io.signal);
    info.write('stopping the simulator\n');
  } finally {
    await handle.close();
  }
  return 0;
}

async function requireKnownScenario(name: string): Promise<void> {
  const { listScenarios } = await import('../../simulators/pbx/state/scenarios.ts');
  const known = listScenarios().map((info) => info.name);
  if (!known.includes(name))
    throw new HarnessError(`unknown scenario '${name}' (known: ${known.join(', ')})`);
}

function describe(handle: PbxHandle, bindHost: string): TargetDescription {
  const state = handle.internals.store.read();
  const monitoring = parseTcpUrl(handle.urls.monitoring) ?? { host: bindHost, port: state.monitoring.port };
  return describeSimulatorTarget({
    webUrl: connectable(handle.urls.web),
    controlUrl: connectable(handle.urls.control),
    monitoring: { host: connectableHost(monitoring.host), port: monitoring.port },
    instanceName: state.monitoring.instanceName,
    authParam: state.monitoring.authParam,
    ...DEFAULT_XMLRPC_CREDENTIALS,
  });
}

function formatBanner(target: TargetDescription, options: SimulateOptions, status: EndpointStatus): string {
  const { pbx } = target;
  const endpoint =
    status.state === 'listening'
      ? `tcp://${pbx.monitoring.host}:${pbx.monitoring.port}`
      : status.state === 'inactive'
        ? `inactive (ports ${status.configuredPort} and ${status.configuredPort + 1} busy)`
        : 'stopped (tile off or no module licence)';
  return [
    `PBX simulator running (scenario ${options.scenario ?? 'healthy'}, clock ${options.clock})`,
    `  web (base_url):  ${pbx.webUrl}`,
    `  XML-RPC:         ${pbx.webUrl}${pbx.xmlrpc.path}  (methods ${pbx.xmlrpc.instanceName}.*)`,
    `  XML-RPC login:   ${pbx.xmlrpc.login} / ${pbx.xmlrpc.password}  (URL parameter ${pbx.xmlrpc.authParam})`,
    `  data endpoint:   ${endpoint}`,
    `  control plane:   ${pbx.controlUrl}`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

function hasUser(handle: PbxHandle, login: string, password: string): boolean {
  const hash = createHash('sha512').update(password, 'utf8').digest('hex');
  return handle.internals.store
    .read()
    .users.some((user) => user.login === login && user.passwordSha512 === hash);
}

function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  if (signal) {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function startError(error: unknown, host: string): HarnessError {
  const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') {
    return new HarnessError(`port ${e.port ?? '?'} on ${e.address ?? host} is already in use`, 1);
  }
  if (e?.code === 'EADDRNOTAVAIL') return new HarnessError(`cannot bind ${host}: address not available`, 1);
  return new HarnessError(`the simulator did not start: ${oneLineMessage(error)}`, 1);
}

function parseTcpUrl(url: string | null): { host: string; port: number } | null {
  const match = url === null ? null : /^tcp:\/\/(.+):(\d+)$/.exec(url);
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : null;
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host;
}

function connectable(url: string): string {
  const parsed = new URL(url);
  const host = connectableHost(parsed.hostname);
  if (host !== parsed.hostname) parsed.hostname = host;
  return parsed.origin;
}
