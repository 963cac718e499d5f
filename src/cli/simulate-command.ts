import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import {
  type AddressPool,
  addressAt,
  DEFAULT_ADDRESS_POOL,
  type Fleet,
  type FleetPbx,
  type FleetPool,
  FleetStartError,
  MAX_PBX_COUNT,
  MAX_POOLED_PBX_COUNT,
  parseAddressPool,
  startFleet,
} from '../../simulators/fleet/index.ts';
import type { EndpointStatus, PbxHandle, PbxStartOptions, PbxState } from '../../simulators/pbx/index.ts';
import { generateControlToken, isLoopbackHost } from '../../simulators/shared/index.ts';
import type { ConsoleOptions } from '../console/console-mount.ts';
import type { FleetForConsole, ReplayClock } from '../console/console-options.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../core/default-credentials.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { weakSecretReason } from '../core/secret-strength.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import type { CliIo } from './cli-io.ts';
import { fleetTargetFixtures } from './fleet-target-fixtures.ts';
import { resolveScenarioOption } from './resolve-scenario-option.ts';
import { prepareResolverFixtures, type ResolverFixtures } from './resolver-fixtures.ts';
import {
  DEFAULT_PBX_COUNT,
  DEFAULT_POOL_DATA_PORT,
  DEFAULT_POOL_WEB_PORT,
  type SimulateOptions,
} from './simulate-options.ts';
import { stopRequested } from './stop-requested.ts';
import { describeSimulatorTarget, type TargetDescription } from './target-description.ts';

export {
  DEFAULT_PBX_COUNT,
  DEFAULT_POOL_DATA_PORT,
  DEFAULT_POOL_WEB_PORT,
  type SimulateOptions,
} from './simulate-options.ts';

/** Commander parser for `--pbx-count`. */
export function parsePbxCount(value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > MAX_POOLED_PBX_COUNT)
    throw new InvalidArgumentError(`expected 1 to ${MAX_POOLED_PBX_COUNT} PBXs`);
  return Number(value);
}

/** Commander parser for `--events-per-hour`. */
export function parseEventsPerHour(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 100_000)
    throw new InvalidArgumentError('expected 0 to 100000 events per hour');
  return n;
}

/**
 * The pool of a pooled fleet: `--address-pool`, or the default pool beyond `MAX_PBX_COUNT` PBXs
 * on Linux (where all of 127/8 is loopback); `null` for the classic fleet on `--host`.
 */
export function fleetPoolOf(options: SimulateOptions): FleetPool | null {
  const count = options.pbxCount ?? DEFAULT_PBX_COUNT;
  let spec = options.addressPool;
  if (spec === undefined) {
    if (count <= MAX_PBX_COUNT) return null;
    if (process.platform !== 'linux')
      throw new HarnessError(
        `beyond ${MAX_PBX_COUNT} PBXs give --address-pool with one address per PBX (only Linux has all of 127/8 on loopback)`,
      );
    spec = DEFAULT_ADDRESS_POOL;
  }
  let addresses: AddressPool;
  try {
    addresses = parseAddressPool(spec);
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  return {
    addresses,
    dataPort: options.port ?? DEFAULT_POOL_DATA_PORT,
    webPort: options.webPort ?? DEFAULT_POOL_WEB_PORT,
  };
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
export async function simulateCommand(
  options: SimulateOptions,
  io: CliIo,
  command: readonly string[] = [],
): Promise<number> {
  if (options.controlToken !== undefined) {
    const weak = weakSecretReason('--control-token', options.controlToken);
    if (weak) throw new HarnessError(weak);
  }
  if (options.fleetOnly || options.shard !== undefined) {
    const { simulateSharded } = await import('./sharded-simulate.ts');
    return simulateSharded(options, io);
  }
  if (options.controller !== undefined) throw new HarnessError('--controller goes with --shard');
  const targetFile = options.targetFile === undefined ? undefined : resolve(io.cwd, options.targetFile);
  if (targetFile !== undefined) await removeStale(targetFile);
  if (
    options.fleet === false &&
    (options.data !== undefined ||
      options.pbxCount !== undefined ||
      options.addressPool !== undefined ||
      (options.activity ?? 'none') !== 'none')
  )
    throw new HarnessError(
      '--data, --pbx-count, --address-pool and --activity belong to the fleet; they cannot go with --no-fleet',
    );
  const pool = options.fleet === false ? null : fleetPoolOf(options);
  const pbxCount = options.pbxCount ?? DEFAULT_PBX_COUNT;
  const activity =
    options.activity === 'field'
      ? {
          seed: options.seed ?? 'field',
          ...(options.eventsPerHour === undefined ? {} : { eventsPerHour: options.eventsPerHour }),
        }
      : undefined;
  // Before anything listens: a folder that cannot be made is a harness error at once (issue 20, item 13).
  if (options.data !== undefined)
    await ensureWritableDir(resolve(io.cwd, options.data), '--data folder').catch((error: unknown) => {
      throw new HarnessError(oneLineMessage(error));
    });
  if (options.recording !== undefined && options.scenario !== undefined)
    throw new HarnessError('--recording and --scenario exclude each other: a recording brings its own state');
  const replayed =
    options.recording === undefined
      ? undefined
      : await import('../record/recording-start.ts').then(({ recordingStartOptions }) => {
          try {
            return recordingStartOptions(
              options.recording!,
              io.cwd,
              options.timing ?? 'recorded',
              Date.now(),
            );
          } catch (error) {
            throw new HarnessError(oneLineMessage(error));
          }
        });
  const scenario = replayed?.scenario ?? (await resolveScenarioOption(options.scenario, io.cwd));
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
    ...(replayed ? { replay: replayed.replay } : {}),
  };
  // Loaded on demand: `verify` against a remote target never needs the simulator.
  const { MAINTENANCE_BASE_PATH, pbxNow, pbxState, start } = await import('../../simulators/pbx/index.ts');
  if (typeof scenario === 'string') await requireKnownScenario(scenario);
  // Issue 32: a pooled fleet's primary PBX has no control listener of its own, so the console is
  // on the controller's control plane (beside the PBX at /pbx/{siteId}); it learns the fleet once
  // the fleet has started. Loaded on demand, like the simulator: `--help` loads commander alone.
  const { consoleMount } = await import('../console/console-mount.ts');
  const { consoleOptionsOf } = await import('../console/console-options.ts');
  const pooledConsole: ConsoleOptions | null = pool ? { tokenRequired: controlToken !== undefined } : null;
  let handle: PbxHandle;
  let fleet: Fleet | null = null;
  let resolverFixtures: ResolverFixtures | null = null;
  try {
    // Only a target file can name the trusted certificates, so only --json makes them.
    resolverFixtures =
      options.json || targetFile !== undefined ? await prepareResolverFixtures(options.host) : null;
  } catch (error) {
    throw startError(error, pool ? 'the pool address' : options.host);
  }
  try {
    if (resolverFixtures?.trustedCa.length) startOptions.resolver = { trustedCa: resolverFixtures.trustedCa };
    const replayClock: { current?: ReplayClock } = {};
    const recordingShown = replayed && {
      recording: replayed.recording,
      file: options.recording ?? '',
      timing: options.timing ?? 'recorded',
      clock: replayClock,
    };
    /** PBX 1's options with the console: on its own control plane, or (pooled) told to the controller's. */
    const withConsole = (shown: FleetForConsole | null, siteId?: string): PbxStartOptions => {
      const consoleOptions = consoleOptionsOf(shown, controlToken, recordingShown);
      if (!pooledConsole || siteId === undefined)
        return { ...startOptions, controlMounts: [consoleMount(consoleOptions)] };
      Object.assign(pooledConsole, consoleOptions, { pbxBase: `/pbx/${encodeURIComponent(siteId)}` });
      return startOptions;
    };
    const replayFrom = (pbx: PbxHandle) => {
      replayClock.current = { startedAt: pbxNow(pbx), now: () => pbxNow(pbx) };
    };
    if (options.fleet === false) {
      handle = await start(withConsole(null));
      replayFrom(handle);
    } else {
      fleet = await startFleet({
        host: options.host,
        ...control,
        clock: options.clock,
        pbxCount,
        ...(options.apiPort === undefined ? {} : { apiPort: options.apiPort }),
        ...(options.ingestPort === undefined ? {} : { ingestPort: options.ingestPort }),
        ...(pool ? { pool } : {}),
        ...(pooledConsole ? { controlMounts: [consoleMount(pooledConsole)] } : {}),
        ...(activity ? { activity } : {}),
        ...(options.data === undefined ? {} : { dataDir: resolve(io.cwd, options.data) }),
        // A refused link (a shard or PBX of another fleet secret, the listener at its limit): one
        // line per peer and reason, as `--fleet-only` prints it (issue 29 item 5).
        warn: (line) => io.stderr.write(`warning: ${line}\n`),
        // The PBXs beside the first: every one trusts the target file's resolver fixtures, so the suite can take any of them.
        pbx: {
          ...(scenario === undefined ? {} : { scenario }),
          ...(startOptions.resolver ? { resolver: startOptions.resolver } : {}),
          host: options.host,
          ...control,
          clock: { mode: options.clock },
          monitoringPort: 0,
        },
        primary: {
          options: (controller, fixture) => withConsole({ controller, fixture }, fixture.pbxs?.[0]?.siteId),
          started: replayFrom,
        },
      });
      handle = (fleet.pbxs[0] as FleetPbx).pbx;
    }
  } catch (error) {
    await resolverFixtures?.close();
    throw fleetStartError(error, pool ? 'the pool address' : options.host);
  }
  try {
    // Listening for SIGINT/SIGTERM before the target line goes out: a caller may signal at once.
    const signalled = stopRequested(io.signal);
    const target = describe(
      handle,
      pbxState(handle),
      options.host,
      MAINTENANCE_BASE_PATH,
      fleet,
      controlToken,
    );
    // Read before the target line goes out: a caller reads the banner as soon as it has that line.
    const endpointStatus = await handle.control.endpointStatus();
    const warnings = await handle.control.warnings();
    if (resolverFixtures) target.resolver = resolverFixtures.section;
    if (options.recording !== undefined) target.replay = { recording: options.recording };
    const info = options.json || command.length > 0 ? io.stderr : io.stdout;
    if (options.json) io.stdout.write(`${JSON.stringify(target)}\n`);
    if (targetFile !== undefined) await writeAtomically(targetFile, `${JSON.stringify(target, null, 2)}\n`);
    const consoleUrl = `${fleet?.pool ? connectable(fleet.urls.control) : target.pbx.controlUrl}/console`;
    info.write(formatBanner(target, options, endpointStatus, consoleUrl));
    if (fleet) info.write(fleet.pool ? formatPooledFleet(fleet, options) : formatFleet(fleet, options));
    info.write(formatBound(handle, fleet?.pool ? null : fleet));
    if (generatedToken) {
      info.write(
        `control token:     ${generatedToken}  (generated for this run, shown once; send Authorization: Bearer <token>)\n`,
      );
    }
    for (const warning of exposureWarnings(options, fleet !== null)) info.write(`warning: ${warning}\n`);
    if (command.length === 0) info.write('Press Ctrl-C to stop.\n');
    // Spec behaviour, not an error: a busy data port moves the endpoint to the next port (with a
    // warning) or leaves it inactive when both are busy (monitoring-endpoint-and-xmlrpc.md).
    for (const warning of warnings) info.write(`warning: ${warning}\n`);
    if (resolverFixtures?.warning) info.write(`warning: ${resolverFixtures.warning}\n`);
    if (!hasUser(pbxState(handle), DEFAULT_XMLRPC_CREDENTIALS.login, DEFAULT_XMLRPC_CREDENTIALS.password)) {
      info.write(
        `warning: this scenario has no XML-RPC user ${DEFAULT_XMLRPC_CREDENTIALS.login} with the default password; ` +
          'set pbx.xmlrpc.login and password in the target file\n',
      );
    }
    let exitCode = 0;
    if (command.length > 0) {
      // The simulator is the command's parent: it ends when the command does, so nothing outlives a CI job.
      const { runWhileSimulating } = await import('./simulate-run.ts');
      exitCode = await runWhileSimulating(command, io, signalled);
    } else await signalled;
    info.write('stopping the simulator\n');
    return exitCode;
  } finally {
    if (targetFile !== undefined) await rm(targetFile, { force: true });
    await handle.close();
    await fleet?.close();
    await resolverFixtures?.close();
  }
}

/** Removes an earlier run's target file; one that cannot be removed stops the start (exit 2). */
async function removeStale(file: string): Promise<void> {
  try {
    await rm(file, { force: true });
  } catch (error) {
    throw new HarnessError(`--target-file ${file} cannot be replaced: ${oneLineMessage(error)}`);
  }
  try {
    await access(dirname(file), constants.W_OK);
  } catch {
    throw new HarnessError(`--target-file ${file}: its folder does not exist or is not writable`);
  }
}

/** Writes `text` beside `file` and renames it into place: a reader sees no file or the whole file. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const aside = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(aside, text, { mode: 0o600 });
    await rename(aside, file);
  } catch (error) {
    await rm(aside, { force: true });
    throw new HarnessError(`--target-file ${file} cannot be written: ${oneLineMessage(error)}`);
  }
}

async function requireKnownScenario(name: string): Promise<void> {
  const { listScenarios } = await import('../../simulators/pbx/index.ts');
  const known = listScenarios().map((info) => info.name);
  if (!known.includes(name))
    throw new HarnessError(`unknown scenario '${name}' (known: ${known.join(', ')})`);
}

function describe(
  handle: PbxHandle,
  state: Readonly<PbxState>,
  bindHost: string,
  maintenanceBasePath: string,
  fleet: Fleet | null,
  controlToken: string | undefined,
): TargetDescription {
  const monitoring = parseTcpUrl(handle.urls.monitoring) ?? { host: bindHost, port: state.monitoring.port };
  const pbxControlUrls = fleet?.pool
    ? fleet.pbxs.slice(0, namedSiteCount(fleet)).map(({ siteId }) => SiteControlUrl(fleet, siteId))
    : (fleet ? fleet.pbxs.map((p) => p.pbx) : [handle]).map((pbx) => connectable(pbx.urls.control));
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
            apiUrl: connectable(fleet.urls.api),
            mcpUrl: `${connectable(fleet.urls.api)}${new URL(fleet.urls.mcp).pathname}`,
            controlUrl: connectable(fleet.urls.control),
            ...fleetTargetFixtures(fleet, pbxControlUrls),
            ...(fleet.pool ? { pool: poolSection(fleet, fleet.pool) } : {}),
          },
        }
      : {}),
  });
}

/** Sites of the fixture a pooled fleet names one by one (the rest follow `site-demo-{n}`). */
function namedSiteCount(fleet: Fleet): number {
  const index = fleet.pbxs.findIndex(({ siteId }) => siteId.startsWith('site-demo-'));
  return index === -1 ? fleet.pbxs.length : index;
}

function SiteControlUrl(fleet: Fleet, siteId: string): string {
  return `${connectable(fleet.urls.control)}/pbx/${encodeURIComponent(siteId)}`;
}

/** The compact description of a pooled fleet for the target file (schemas/target.schema.json, `fleet.pool`). */
function poolSection(fleet: Fleet, pool: FleetPool): NonNullable<TargetDescription['fleet']>['pool'] {
  const count = fleet.pbxs.length;
  return {
    count,
    addresses: `${addressAt(pool.addresses, 0)}-${addressAt(pool.addresses, count - 1)}`,
    ports: { data: pool.dataPort, web: pool.webPort },
    namedSites: fleet.pbxs.slice(0, namedSiteCount(fleet)).map(({ siteId }) => siteId),
    sitePattern: 'site-demo-{n}',
    controlUrlPattern: `${connectable(fleet.urls.control)}/pbx/{siteId}`,
  };
}

/** The banner of a pooled fleet: the pool, the ports and the per-site pattern, not one line per PBX. */
function formatPooledFleet(fleet: Fleet, options: SimulateOptions): string {
  const pool = fleet.pool as FleetPool;
  const section = poolSection(fleet, pool) as NonNullable<ReturnType<typeof poolSection>>;
  const { urls } = fleet;
  const named = section.namedSites ?? [];
  const partners = new Map(fleet.fixture.partners.map((p) => [p.id, p.name]));
  return [
    `Fleet controller (${section.count} PBXs, one address each; state ${options.data === undefined ? 'in memory' : `kept in ${options.data}`})`,
    `  REST:            ${connectable(urls.api)}/api/v1  (controller_url ${connectable(urls.api)})`,
    `  MCP:             ${connectable(urls.api)}${new URL(urls.mcp).pathname}  (Streamable HTTP, Bearer token)`,
    `  control plane:   ${connectable(urls.control)}  (PBX n: ${section.controlUrlPattern})`,
    `  PBX ingest:      ${connectableTcp(urls.ingest) ?? urls.ingest}  (these PBXs link in-process; shards and other PBXs over TCP)`,
    `  PBX addresses:   ${section.addresses}  (pool ${pool.addresses.spec}; PBX n on its n-th address)`,
    `  PBX ports:       data endpoint ${pool.dataPort}, web ${pool.webPort} (XML-RPC at /xml-rpc) on every address`,
    `  PBX sites:       ${named.map((id, i) => `${i + 1} ${id}`).join(', ')}${section.count > named.length ? `; n > ${named.length}: ${section.sitePattern}` : ''}`,
    `  activity:        ${options.activity === 'field' ? `field, seed ${options.seed ?? 'field'}` : 'none (PUT <PBX control plane>/activity {"seed":"…"} starts it)'}`,
    '  demo accounts (HTTP Basic; default fixture):',
    ...fleet.fixture.accounts
      .filter((a) => a.password !== null)
      .map((a) => `    ${a.email} / ${a.password}  (${a.role}, ${partners.get(a.partnerId) ?? a.partnerId})`),
    '  demo MCP tokens:',
    ...fleet.fixture.tokens.map((t) => `    ${t.secret}  (${t.accountId}, ${t.level})`),
    '',
  ].join('\n');
}

/** The fleet part of the banner: controller URLs, the PBXs and their sites, the demo accounts. */
function formatFleet(fleet: Fleet, options: SimulateOptions): string {
  const { urls } = fleet;
  const [primary, ...peers] = fleet.pbxs;
  const partners = new Map(fleet.fixture.partners.map((p) => [p.id, p.name]));
  const lines = [
    `Fleet controller (${fleet.pbxs.length} PBXs; state ${options.data === undefined ? 'in memory' : `kept in ${options.data}`})`,
    `  REST:            ${connectable(urls.api)}/api/v1  (controller_url ${connectable(urls.api)})`,
    `  MCP:             ${connectable(urls.api)}${new URL(urls.mcp).pathname}  (Streamable HTTP, Bearer token)`,
    `  control plane:   ${connectable(urls.control)}`,
    `  PBX ingest:      ${connectableTcp(urls.ingest) ?? urls.ingest}`,
    '  PBXs (site, web, control plane, data endpoint):',
    `    ${(primary?.siteId ?? '?').padEnd(16)} the PBX above`,
    ...peers.map(
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
function formatBound(handle: PbxHandle, fleet: Fleet | null): string {
  const hostPort = (url: string | null) => (url === null ? 'not listening' : url.replace(/^\w+:\/\//, ''));
  const lines = [
    'bound addresses',
    `  PBX web ${hostPort(handle.urls.web)}, data endpoint ${hostPort(handle.urls.monitoring)}, control plane ${hostPort(handle.urls.control)}`,
  ];
  if (fleet) {
    const { urls } = fleet;
    lines.push(
      `  fleet REST+MCP ${hostPort(urls.api)}, ingest ${hostPort(urls.ingest)}, control plane ${hostPort(urls.control)}`,
    );
    for (const { siteId, pbx } of fleet.pbxs.slice(1)) {
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

function formatBanner(
  target: TargetDescription,
  options: SimulateOptions,
  status: EndpointStatus,
  consoleUrl: string,
): string {
  const { pbx } = target;
  const endpoint =
    status.state === 'listening'
      ? `tcp://${pbx.monitoring.host}:${pbx.monitoring.port}`
      : status.state === 'inactive'
        ? `inactive (ports ${status.configuredPort} and ${status.configuredPort + 1} busy)`
        : 'stopped (tile off or no module licence)';
  return [
    `PBX simulator running (${options.recording === undefined ? `scenario ${options.scenario ?? 'healthy'}` : `recording ${options.recording}, timing ${options.timing ?? 'recorded'}`}, clock ${options.clock})`,
    `  web (base_url):  ${pbx.webUrl}`,
    `  XML-RPC:         ${pbx.webUrl}${pbx.xmlrpc.path}  (methods ${pbx.xmlrpc.instanceName}.*)`,
    `  XML-RPC login:   ${pbx.xmlrpc.login} / ${pbx.xmlrpc.password}  (URL parameter ${pbx.xmlrpc.authParam})`,
    `  data endpoint:   ${endpoint}`,
    `  control plane:   ${pbx.controlUrl}`,
    `  console:         ${consoleUrl}  (open it in a browser)`,
    '',
  ].join('\n');
}

function hasUser(state: Readonly<PbxState>, login: string, password: string): boolean {
  const hash = createHash('sha512').update(password, 'utf8').digest('hex');
  return state.users.some((user) => user.login === login && user.passwordSha512 === hash);
}

/**
 * What `simulate` says when its PBXs and fleet did not start: the preflight's line as it is, the
 * controller's failure with its cause, a PBX's like the one PBX's ({@link startError}).
 */
function fleetStartError(error: unknown, host: string): HarnessError {
  if (!(error instanceof FleetStartError)) return startError(error, host);
  if (error.part === 'pbx') return startError(error.cause, host);
  return new HarnessError(oneLineMessage(error));
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

/** `url` with a wildcard host made connectable; its path kept (a site-addressed control plane's `/pbx/{siteId}`). */
function connectable(url: string): string {
  const parsed = new URL(url);
  const host = connectableHost(parsed.hostname);
  if (host !== parsed.hostname) parsed.hostname = host;
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}
