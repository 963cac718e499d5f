import { resolve } from 'node:path';
import {
  addressAt,
  DEFAULT_ADDRESS_POOL,
  FLEET_SECRET_ENV,
  type FleetShard,
  FleetStartError,
  parseAddressPool,
  parseShard,
  startFleet,
} from '../../simulators/fleet/index.ts';
import { isLoopbackHost, type RefusalReason } from '../../simulators/shared/index.ts';
import type { ConsoleOptions } from '../console/console-mount.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { MAKE_A_SECRET, MIN_SECRET_LENGTH, weakSecretReason } from '../core/secret-strength.ts';
import type { CliIo } from './cli-io.ts';
import { resolveScenarioOption } from './resolve-scenario-option.ts';
import {
  DEFAULT_PBX_COUNT,
  DEFAULT_POOL_DATA_PORT,
  DEFAULT_POOL_WEB_PORT,
  type SimulateOptions,
} from './simulate-options.ts';
import { stopRequested } from './stop-requested.ts';

/**
 * The fleet secret from the environment: set, at least 32 characters and no placeholder such as
 * deploy/secret.yaml's (issue 29 item 6); else exit 2 with a line saying how to make one.
 */
function fleetSecret(io: CliIo): string {
  const secret = io.env[FLEET_SECRET_ENV];
  if (secret === undefined)
    throw new HarnessError(
      `set ${FLEET_SECRET_ENV} to one secret of at least ${MIN_SECRET_LENGTH} characters for the controller and every shard (the PBXs' ingest keys derive from it); ${MAKE_A_SECRET}`,
    );
  const weak = weakSecretReason(FLEET_SECRET_ENV, secret);
  if (weak) throw new HarnessError(weak);
  return secret;
}

/**
 * What a shard says of its links' refusals (issue 29 item 5). The first refusal for authentication
 * (`bad-key`: the shard's fleet secret is not the controller's) settles `authentication` with the
 * one line the shard exits 2 with; every PBX of the shard derives its key from the same secret, so
 * no other link would fare better. Any other refusal (`unknown-site`, `bad-hello`, `link-cut`,
 * `connection-limit`) and an unreachable controller are written once each as a warning while the
 * links retry with back-off (controller-link.ts).
 */
class ShardRefusals {
  private readonly reported = new Set<string>();
  private settle: ((line: string) => void) | undefined;
  /** The line of the authentication refusal, once there was one. */
  failure: string | undefined;
  readonly authentication = new Promise<string>((resolve) => {
    this.settle = resolve;
  });

  constructor(
    private readonly controller: string,
    private readonly stderr: CliIo['stderr'],
  ) {}

  readonly refused = (siteId: string, reason: RefusalReason): void => {
    if (reason === 'bad-key') {
      if (this.failure !== undefined) return;
      this.failure = `the controller ${this.controller} refused the link of site ${siteId} for authentication (bad-key): the key this shard derives from ${FLEET_SECRET_ENV} is not the controller's; give the controller and every shard the same secret`;
      this.settle?.(this.failure);
      return;
    }
    this.once(
      reason,
      `the controller ${this.controller} refused the link of site ${siteId} (${reason}${reason === 'unknown-site' ? ": is --pbx-count the controller's?" : ''}); retrying with back-off, reported once`,
    );
  };

  readonly unreachable = (why: string): void => {
    this.once(
      'unreachable',
      `cannot reach the controller ${this.controller} (${why}); retrying with back-off, reported once`,
    );
  };

  private once(key: string, line: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.stderr.write(`warning: ${line}\n`);
  }
}

/**
 * `simulate --fleet-only` and `simulate --shard i/N` (issue 22): a fleet across processes or
 * machines. The controller alone registers every site of a fleet of `--pbx-count` PBXs with the
 * key derived from `PBX_CONFORMANCE_FLEET_SECRET`; each shard starts its slice of the PBXs and
 * links them to `--controller`. Runs until SIGINT/SIGTERM (or `io.signal`).
 */
export async function simulateSharded(options: SimulateOptions, io: CliIo): Promise<number> {
  if (options.fleetOnly && options.shard !== undefined)
    throw new HarnessError('--fleet-only runs the controller, --shard runs PBXs: give one of them');
  if (options.json)
    throw new HarnessError('--json describes one PBX; it does not go with --fleet-only or --shard');
  if (options.fleet === false) throw new HarnessError('--no-fleet does not go with --fleet-only or --shard');
  const secret = fleetSecret(io);
  const count = options.pbxCount ?? DEFAULT_PBX_COUNT;
  const info = io.stdout;
  if (options.fleetOnly) {
    if (options.controller !== undefined)
      throw new HarnessError('--controller names the controller of a shard; --fleet-only is that controller');
    // Issue 32: the console on the controller's control plane, the fleet view alone (no PBX runs
    // here); it learns the fleet once the fleet has started.
    const { consoleMount } = await import('../console/console-mount.ts');
    const { consoleOptionsOf } = await import('../console/console-options.ts');
    const consoleOptions: ConsoleOptions = {
      tokenRequired: options.controlToken !== undefined,
      pbxBase: null,
    };
    // No descriptor per site: each shard links all its PBXs over one multiplexed connection.
    const fleet = await startFleet({
      part: 'controller',
      host: options.host,
      ...(options.controlHost === undefined ? {} : { controlHost: options.controlHost }),
      ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
      clock: options.clock,
      pbxCount: count,
      secret,
      ...(options.apiPort === undefined ? {} : { apiPort: options.apiPort }),
      ...(options.ingestPort === undefined ? {} : { ingestPort: options.ingestPort }),
      ...(options.controlPort === undefined ? {} : { controlPort: options.controlPort }),
      controlMounts: [consoleMount(consoleOptions)],
      ...(options.data === undefined ? {} : { dataDir: resolve(io.cwd, options.data) }),
      warn: (line) => io.stderr.write(`warning: ${line}\n`),
    }).catch((error: unknown) => {
      throw new HarnessError(oneLineMessage(error));
    });
    Object.assign(consoleOptions, consoleOptionsOf(fleet, options.controlToken, undefined));
    try {
      const stop = stopRequested(io.signal);
      const { urls } = fleet;
      info.write(
        [
          `Fleet controller alone (${count} sites, each waiting for its PBX from a shard; clock ${options.clock})`,
          `  REST:            ${urls.api}/api/v1`,
          `  MCP:             ${urls.mcp}`,
          `  control plane:   ${urls.control}`,
          `  console:         ${urls.control}/console  (the fleet view; open it in a browser)`,
          `  PBX ingest:      ${urls.ingest}  (simulate --shard i/N --controller <this> --pbx-count ${count})`,
          ...(isLoopbackHost(options.host)
            ? []
            : [`warning: --host ${options.host} exposes REST, MCP and the ingest listener beyond loopback`]),
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      await stop;
      info.write('stopping the controller\n');
    } finally {
      await fleet.close();
    }
    return 0;
  }
  let shard: ReturnType<typeof parseShard>;
  try {
    shard = parseShard(options.shard ?? '', io.env);
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  if (options.controller === undefined || !/^tcp:\/\/[^/]+:\d+$/.test(options.controller))
    throw new HarnessError(
      '--shard needs --controller tcp://host:port, the ingest listener of simulate --fleet-only',
    );
  let addresses: ReturnType<typeof parseAddressPool>;
  try {
    addresses = parseAddressPool(options.addressPool ?? DEFAULT_ADDRESS_POOL);
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  const pool = {
    addresses,
    dataPort: options.port ?? DEFAULT_POOL_DATA_PORT,
    webPort: options.webPort ?? DEFAULT_POOL_WEB_PORT,
  };
  const scenario = await resolveScenarioOption(options.scenario, io.cwd);
  const refusals = new ShardRefusals(options.controller, io.stderr);
  let running: FleetShard;
  try {
    running = await startFleet({
      part: 'shard',
      shard,
      pbxCount: count,
      controller: options.controller,
      secret,
      pool,
      onRefused: refusals.refused,
      onUnreachable: refusals.unreachable,
      pbx: { ...(scenario === undefined ? {} : { scenario }), clock: { mode: options.clock } },
      controlHost: options.controlHost ?? '127.0.0.1',
      controlPort: options.controlPort ?? 0,
      ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
      ...(options.activity === 'field'
        ? {
            activity: {
              seed: options.seed ?? 'field',
              ...(options.eventsPerHour === undefined ? {} : { eventsPerHour: options.eventsPerHour }),
            },
          }
        : {}),
    });
  } catch (error) {
    // The preflight's line says all; anything else is the shard's start failing, with its cause.
    if (error instanceof FleetStartError && error.part === 'preflight') throw new HarnessError(error.message);
    const cause = error instanceof FleetStartError ? error.cause : error;
    throw new HarnessError(`shard ${shard.index + 1}/${shard.total} did not start: ${oneLineMessage(cause)}`);
  }
  try {
    const stop = stopRequested(io.signal);
    if (refusals.failure !== undefined) throw new HarnessError(refusals.failure);
    const { from, to } = running;
    const range = to > from ? `${addressAt(addresses, from)}-${addressAt(addresses, to - 1)}` : 'none';
    info.write(
      [
        `Fleet shard ${shard.index + 1}/${shard.total}: PBXs ${from + 1} to ${to} of ${count} (clock ${options.clock})`,
        `  sites:           ${running.siteIds[0] ?? '-'} … ${running.siteIds.at(-1) ?? '-'}`,
        `  PBX addresses:   ${range}  (pool ${addresses.spec})`,
        `  PBX ports:       data endpoint ${pool.dataPort}, web ${pool.webPort} on every address`,
        `  control plane:   ${running.urls.control}  (PBX of site X: ${running.urls.control}/pbx/X)`,
        `  controller:      ${options.controller}`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    const refusedForAuth = await Promise.race([stop.then(() => undefined), refusals.authentication]);
    if (refusedForAuth !== undefined) throw new HarnessError(refusedForAuth);
    info.write('stopping the shard\n');
  } finally {
    await running.close();
  }
  return 0;
}
