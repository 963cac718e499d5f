import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { EndpointStatus, PbxHandle, PbxStartOptions } from '../../simulators/pbx/index.ts';
import { generateControlToken, isLoopbackHost } from '../../simulators/shared/control-token.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../core/default-credentials.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';
import { type DemoFleet, fleetTargetFixtures, MAX_PBX_COUNT, startDemoFleet } from './demo-fleet.ts';
import { resolveScenarioOption } from './resolve-scenario-option.ts';
import { prepareResolverFixtures, type ResolverFixtures } from './resolver-fixtures.ts';
import { stopRequested } from './stop-requested.ts';
import { describeSimulatorTarget, type TargetDescription } from './target-description.ts';

export interface SimulateOptions {
  scenario?: string;
  port?: number;
  webPort?: number;
  controlPort?: number;
  host: string;
  /** Address of the control planes (default 127.0.0.1, whatever `host` says). */
  controlHost?: string;
  /** Bearer token of the control planes; generated (and printed once) beyond loopback. */
  controlToken?: string;
  clock: 'running' | 'frozen';
  json?: boolean;
  /** `--no-fleet` sets `false`: the primary PBX alone, as before issue 4. */
  fleet?: boolean;
  /** PBXs in the fleet, the primary included (default 3). */
  pbxCount?: number;
  /** Keep the controller's state in this directory (relative to `io.cwd`). */
  data?: string;
}

/** PBXs `simulate` starts by default: the primary and two more, one per fixture site. */
export const DEFAULT_PBX_COUNT = 3;

/** Commander parser for `--pbx-count`. */
export function parsePbxCount(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PBX_COUNT)
    throw new InvalidArgumentError(`expected 1 to ${MAX_PBX_COUNT} PBXs`);
  return Number(value);
}

/**
 * `simulate`: starts the simulated PBX and, unless `--no-fleet`, a fleet controller with
 * `--pbx-count` PBXs (the primary one of them), each registered through the controller's control
 * plane and forwarding its attention events over the ingest link; prints where the faces are, the
 * XML-RPC credentials and the fleet's demo accounts, and runs until SIGINT/SIGTERM (or
 * `io.signal`), then closes every listener. With `--json` the first stdout line is a target
 * description for `verify --target`; the rest goes to stderr. A busy web or control port is a
 * harness error with exit code 2; a busy data endpoint port follows the spec instead (next port,
 * or inactive) and is printed as a warning.
 */
export async function simulateCommand(options: SimulateOptions, io: CliIo): Promise<number> {
  if (options.fleet === false && (options.data !== undefined || options.pbxCount !== undefined))
    throw new HarnessError('--data and --pbx-count belong to the fleet; they cannot go with --no-fleet');
  const scenario = await resolveScenarioOption(options.scenario, io.cwd);
  const controlHost = options.controlHost ?? '127.0.0.1';
  // Issue 12, defect 7: a control plane beyond loopback always has a token.
  const generatedToken =
    options.controlToken === undefined && !isLoopbackHost(controlHost) ? generateControlToken() : undefined;
  const controlToken = options.controlToken ?? generatedToken;
  const control = { controlHost, ...(controlToken === undefined ? {} : { controlToken }) };
  const startOptions: PbxStartOptions = {
    ...(scenario === undefined ? {} : { scenario }),
    host: options.host,
    ...control,
    clock: { mode: options.clock },
    ...(options.port === undefined ? {} : { monitoringPort: options.port }),
    ...(options.webPort === undefined ? {} : { webPort: options.webPort }),
    ...(options.controlPort === undefined ? {} : { controlPort: options.controlPort }),
  };
  // Loaded on demand: `verify` against a remote target never needs the simulator.
  const { MAINTENANCE_BASE_PATH, start } = await import('../../simulators/pbx/index.ts');
  if (typeof scenario === 'string') await requireKnownScenario(scenario);
  const fleet =
    options.fleet === false
      ? null
      : await startDemoFleet({
          host: options.host,
          ...control,
          clock: options.clock,
          pbxCount: options.pbxCount ?? DEFAULT_PBX_COUNT,
          ...(options.data === undefined ? {} : { dataDir: resolve(io.cwd, options.data) }),
        });
  let handle: PbxHandle;
  let resolverFixtures: ResolverFixtures | null = null;
  try {
    // Only a target file can name the trusted certificates, so only --json makes them.
    resolverFixtures = options.json ? await prepareResolverFixtures(options.host) : null;
    if (resolverFixtures?.trustedCa.length) startOptions.resolver = { trustedCa: resolverFixtures.trustedCa };
    const primary = fleet?.registrations[0];
    handle = await start(primary ? { ...startOptions, controller: primary } : startOptions);
  } catch (error) {
    await resolverFixtures?.close();
    await fleet?.close();
    throw startError(error, options.host);
  }
  try {
    if (fleet) {
      try {
        await fleet.startPeers({
          ...(scenario === undefined ? {} : { scenario }),
          host: options.host,
          ...control,
          clock: { mode: options.clock },
          monitoringPort: 0,
        });
      } catch (error) {
        throw startError(error, options.host);
      }
    }
    // Listening for SIGINT/SIGTERM before the target line goes out: a caller may signal at once.
    const stop = stopRequested(io.signal);
    const target = describe(handle, options.host, MAINTENANCE_BASE_PATH, fleet, controlToken);
    if (resolverFixtures) target.resolver = resolverFixtures.section;
    const info = options.json ? io.stderr : io.stdout;
    if (options.json) io.stdout.write(`${JSON.stringify(target)}\n`);
    info.write(formatBanner(target, options, handle.internals.endpoint.status()));
    if (fleet) info.write(formatFleet(fleet, options));
    info.write(formatBound(handle, fleet));
    if (generatedToken) {
      info.write(
        `control token:     ${generatedToken}  (generated for this run, shown once; send Authorization: Bearer <token>)\n`,
      );
    }
    for (const warning of exposureWarnings(options, fleet !== null)) info.write(`warning: ${warning}\n`);
    info.write('Press Ctrl-C to stop.\n');
    // Spec behaviour, not an error: a busy data port moves the endpoint to the next port (with a
    // warning) or leaves it inactive when both are busy (monitoring-endpoint-and-xmlrpc.md).
    for (const warning of handle.internals.store.warnings()) info.write(`warning: ${warning}\n`);
    if (resolverFixtures?.warning) info.write(`warning: ${resolverFixtures.warning}\n`);
    if (!hasUser(handle, DEFAULT_XMLRPC_CREDENTIALS.login, DEFAULT_XMLRPC_CREDENTIALS.password)) {
      info.write(
        `warning: this scenario has no XML-RPC user ${DEFAULT_XMLRPC_CREDENTIALS.login} with the default password; ` +
          'set pbx.xmlrpc.login and password in the target file\n',
      );
    }
    await stop;
    info.write('stopping the simulator\n');
  } finally {
    await handle.close();
    await fleet?.close();
    await resolverFixtures?.close();
  }
  return 0;
}

async function requireKnownScenario(name: string): Promise<void> {
  const { listScenarios } = await import('../../simulators/pbx/index.ts');
  const known = listScenarios().map((info) => info.name);
  if (!known.includes(name))
    throw new HarnessError(`unknown scenario '${name}' (known: ${known.join(', ')})`);
}

function describe(
  handle: PbxHandle,
  bindHost: string,
  maintenanceBasePath: string,
  fleet: DemoFleet | null,
  controlToken: string | undefined,
): TargetDescription {
  const state = handle.internals.store.read();
  const monitoring = parseTcpUrl(handle.urls.monitoring) ?? { host: bindHost, port: state.monitoring.port };
  const pbxControlUrls = [handle, ...(fleet?.peers.map((p) => p.pbx) ?? [])].map((pbx) =>
    connectable(pbx.urls.control),
  );
  return describeSimulatorTarget({
    webUrl: connectable(handle.urls.web),
    controlUrl: connectable(handle.urls.control),
    monitoring: { host: connectableHost(monitoring.host), port: monitoring.port },
    instanceName: state.monitoring.instanceName,
    authParam: state.monitoring.authParam,
    ...DEFAULT_XMLRPC_CREDENTIALS,
    maintenanceBasePath,
    ...(controlToken === undefined ? {} : { controlToken }),
    ...(fleet
      ? {
          fleet: {
            apiUrl: connectable(fleet.controller.urls.api),
            mcpUrl: `${connectable(fleet.controller.urls.api)}${new URL(fleet.controller.urls.mcp).pathname}`,
            controlUrl: connectable(fleet.controller.urls.control),
            ...fleetTargetFixtures(fleet, pbxControlUrls),
          },
        }
      : {}),
  });
}

/** The fleet part of the banner: controller URLs, the PBXs and their sites, the demo accounts. */
function formatFleet(fleet: DemoFleet, options: SimulateOptions): string {
  const { urls } = fleet.controller;
  const [primary] = fleet.registrations;
  const partners = new Map(fleet.fixture.partners.map((p) => [p.id, p.name]));
  const lines = [
    `Fleet controller (${fleet.registrations.length} PBXs; state ${options.data === undefined ? 'in memory' : `kept in ${options.data}`})`,
    `  REST:            ${connectable(urls.api)}/api/v1  (controller_url ${connectable(urls.api)})`,
    `  MCP:             ${connectable(urls.api)}${new URL(urls.mcp).pathname}  (Streamable HTTP, Bearer token)`,
    `  control plane:   ${connectable(urls.control)}`,
    `  PBX ingest:      ${primary?.ingest ?? urls.ingest}`,
    '  PBXs (site, web, control plane, data endpoint):',
    `    ${(primary?.siteId ?? '?').padEnd(16)} the PBX above`,
    ...fleet.peers.map(
      ({ siteId, pbx }) =>
        `    ${siteId.padEnd(16)} ${connectable(pbx.urls.web)}  ${connectable(pbx.urls.control)}  ${connectableTcp(pbx.urls.monitoring) ?? 'inactive'}`,
    ),
    '  demo accounts (HTTP Basic; default fixture):',
    ...fleet.fixture.accounts
      .filter((a) => a.password !== null)
      .map((a) => `    ${a.email} / ${a.password}  (${a.role}, ${partners.get(a.partnerId) ?? a.partnerId})`),
    '  demo MCP tokens:',
    ...fleet.fixture.tokens.map((t) => `    ${t.secret}  (${t.accountId}, ${t.level})`),
    `  raise an event:  POST <PBX control plane>/events/attention {"module":"Backup","subject":"…","severity":"ERROR"}`,
    '',
  ];
  return lines.join('\n');
}

/**
 * The addresses the listeners are actually bound to (the URLs above are where to connect: a
 * wildcard bind shows as 127.0.0.1 there).
 */
function formatBound(handle: PbxHandle, fleet: DemoFleet | null): string {
  const hostPort = (url: string | null) => (url === null ? 'not listening' : url.replace(/^\w+:\/\//, ''));
  const lines = [
    'bound addresses',
    `  PBX web ${hostPort(handle.urls.web)}, data endpoint ${hostPort(handle.urls.monitoring)}, control plane ${hostPort(handle.urls.control)}`,
  ];
  if (fleet) {
    const { urls } = fleet.controller;
    lines.push(
      `  fleet REST+MCP ${hostPort(urls.api)}, ingest ${hostPort(urls.ingest)}, control plane ${hostPort(urls.control)}`,
    );
    for (const { siteId, pbx } of fleet.peers) {
      lines.push(
        `  ${siteId}: web ${hostPort(pbx.urls.web)}, data endpoint ${hostPort(pbx.urls.monitoring)}, control plane ${hostPort(pbx.urls.control)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What `simulate` exposes beyond loopback, one warning per listener group (issue 12, defect 7). */
export function exposureWarnings(
  options: Pick<SimulateOptions, 'host' | 'controlHost' | 'controlToken'>,
  withFleet: boolean,
): string[] {
  const warnings: string[] = [];
  if (!isLoopbackHost(options.host)) {
    const faces = ['the data endpoint', 'the web server (XML-RPC, maintenance API, module downloads)'];
    if (withFleet) faces.push('fleet REST and MCP', 'the PBX ingest listener');
    warnings.push(
      `--host ${options.host} exposes ${faces.join(', ')} beyond loopback; the control planes stay on ${options.controlHost ?? '127.0.0.1'}`,
    );
  }
  const controlHost = options.controlHost ?? '127.0.0.1';
  if (!isLoopbackHost(controlHost)) {
    warnings.push(
      `--control-host ${controlHost} exposes the control planes beyond loopback; every request needs the control token`,
    );
  }
  return warnings;
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
    '',
  ].join('\n');
}

function hasUser(handle: PbxHandle, login: string, password: string): boolean {
  const hash = createHash('sha512').update(password, 'utf8').digest('hex');
  return handle.internals.store
    .read()
    .users.some((user) => user.login === login && user.passwordSha512 === hash);
}

function startError(error: unknown, host: string): HarnessError {
  const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') {
    return new HarnessError(`port ${e.port ?? '?'} on ${e.address ?? host} is already in use`);
  }
  if (e?.code === 'EADDRNOTAVAIL') return new HarnessError(`cannot bind ${host}: address not available`);
  return new HarnessError(`the simulator did not start: ${oneLineMessage(error)}`);
}

function parseTcpUrl(url: string | null): { host: string; port: number } | null {
  const match = url === null ? null : /^tcp:\/\/(.+):(\d+)$/.exec(url);
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : null;
}

function connectableTcp(url: string | null): string | null {
  const parsed = parseTcpUrl(url);
  return parsed ? `tcp://${connectableHost(parsed.host)}:${parsed.port}` : null;
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
