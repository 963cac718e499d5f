import type { FleetControl, FleetFixture, FleetHandle, FleetUrls } from '../fleet-controller/index.ts';
import type {
  ControllerSettings,
  FieldActivityOptions,
  PbxHandle,
  PbxStartOptions,
  RawMount,
} from '../pbx/index.ts';
import { addressAt, type FleetPool } from './address-pool.ts';
import { demoFixture } from './demo-fixture.ts';
import { preflightFleet } from './fleet-preflight.ts';
import { FleetStartError } from './fleet-start-error.ts';
import { type FleetShard, type ShardOptions, startShard } from './shard-fleet.ts';
import { derivedIngestKey } from './shards.ts';

/** Upper bound of `--pbx-count` with a listener set per PBX on `--host` and ephemeral ports. */
export const MAX_PBX_COUNT = 50;

/** Upper bound of `--pbx-count` for a pooled fleet (one address per PBX, issue 22). */
export const MAX_POOLED_PBX_COUNT = 100_000;

/** PBXs started at the same time while a pooled fleet comes up. */
const START_CONCURRENCY = 64;

/** What the controller of a fleet starts with (`simulate`, `simulate --fleet-only`). */
interface ControllerOptions {
  /** Address of the controller's REST/MCP and ingest listeners (and of unpooled PBXs). */
  host: string;
  /** Address and token of the controller's control plane (default 127.0.0.1, no token). */
  controlHost?: string;
  controlToken?: string;
  clock: 'running' | 'frozen';
  /** PBXs in the fleet, the primary included (one site each). */
  pbxCount: number;
  /** `--data DIR`, already resolved; absent: in memory. */
  dataDir?: string;
  /** The fleet secret the sites' ingest keys derive from (a sharded fleet); absent: fresh random keys. */
  secret?: string;
  /** Ports of the controller's listeners (default: any free port). */
  apiPort?: number;
  ingestPort?: number;
  controlPort?: number;
  /** Handlers the controller's control listener serves beside its operations (the console, issue 32). */
  controlMounts?: readonly RawMount[];
  /** The controller's warnings for its operator (a refused PBX link, issue 29 item 5). */
  warn?: (line: string) => void;
}

/** The controller and every PBX in this process (`simulate --pbx-count N`). */
export interface WholeFleetOptions extends ControllerOptions {
  part?: 'whole';
  /** One address per PBX from this pool (issue 22); absent: every PBX on `host`, ephemeral ports. */
  pool?: FleetPool;
  /** Seed and rate of `--activity field`; absent: the PBXs change only when told to. */
  activity?: FieldActivityOptions;
  /** What every PBX but the first starts with (scenario, clock, …; ports and link are the fleet's). */
  pbx: PbxStartOptions;
  /** PBX 1, the one `simulate` prints: what it starts with instead of `pbx`, and what follows its start. */
  primary?: {
    /** Its options (its ports, a replay, the console), given the running controller; default `pbx`. */
    options?(controller: FleetHandle, fixture: FleetFixture): PbxStartOptions;
    /** Called as soon as it listens, before the other PBXs start. */
    started?(pbx: PbxHandle): void;
  };
}

/** The controller alone (`simulate --fleet-only`): every site waits for its PBX from a shard. */
export interface ControllerOnlyOptions extends ControllerOptions {
  part: 'controller';
  secret: string;
}

/** A PBX of the fleet in this process, with its site. */
export interface FleetPbx {
  siteId: string;
  pbx: PbxHandle;
}

/** A running fleet: its controller and the PBXs of this process. */
export interface Fleet {
  /** The controller's listeners (REST, MCP, control plane, ingest) as bound. */
  urls: FleetUrls;
  /** The controller's control client. */
  control: FleetControl;
  /** The controller (for its named front-door functions). */
  controller: FleetHandle;
  /** The fixture the controller was started with (the demo accounts and every PBX site, in order). */
  fixture: FleetFixture;
  /** The PBXs of this process, PBX 1 (the primary) first; none for the controller alone. */
  pbxs: FleetPbx[];
  /** The pool the PBXs take their addresses from, when the fleet is pooled. */
  pool: FleetPool | null;
  /** Closes the PBXs, then the controller. */
  close(): Promise<void>;
}

export type FleetOptions = WholeFleetOptions | ControllerOnlyOptions | ShardOptions;

/**
 * The fleet engine's front door (issue 22, issue 30 §3): a fleet controller with the default
 * fixture (or the state kept in `dataDir`) and one PBX per site, each forwarding its attention
 * events over the real ingest link; or the controller alone (`part: 'controller'`); or shard i/N
 * of the PBXs of a fleet whose controller runs elsewhere (`part: 'shard'`, see {@link startShard}).
 *
 * Sites are taken in the fixture's order; beyond them, demo sites `site-demo-<n>` owned by
 * Nordlicht are added. The demo sites and every PBX's site and ingest key are part of the fixture
 * the controller starts with, so the control plane's reset (which reloads the fixture,
 * docs/fleet-controller.md) keeps the registrations and the PBXs' links reconnect by themselves;
 * a restored data directory is brought in line with the same fixture (missing sites added, each
 * PBX registered with its key). A pooled fleet is checked first ({@link preflightFleet}), its PBXs
 * link over in-process pipes, and its control plane serves each PBX at `/pbx/{siteId}`. What does
 * not start throws a {@link FleetStartError} naming the part, after closing what had started.
 */
export function startFleet(options: WholeFleetOptions | ControllerOnlyOptions): Promise<Fleet>;
export function startFleet(options: ShardOptions): Promise<FleetShard>;
export async function startFleet(options: FleetOptions): Promise<Fleet | FleetShard> {
  if (options.part === 'shard') return startShard(options);
  const pool = options.part === 'controller' ? null : (options.pool ?? null);
  if (pool) {
    const reason = await preflightFleet({
      count: options.pbxCount,
      pool: pool.addresses,
      ports: [pool.dataPort, pool.webPort],
    });
    if (reason) throw new FleetStartError('preflight', reason);
  }
  const { alignFixture, connectInProcess, defaultFixture, SiteControlPlane, start } = await import(
    '../fleet-controller/index.ts'
  );
  const { secret } = options;
  const fixture = demoFixture(
    defaultFixture(),
    options.pbxCount,
    ...(secret === undefined ? [] : [(siteId: string) => derivedIngestKey(secret, siteId)]),
  );
  const siteControl = pool ? new SiteControlPlane() : null;
  let controller: FleetHandle;
  try {
    controller = await start({
      fixture,
      ...(siteControl ? { siteControl } : {}),
      ...(options.apiPort === undefined ? {} : { apiPort: options.apiPort }),
      ...(options.ingestPort === undefined ? {} : { ingestPort: options.ingestPort }),
      ...(options.controlPort === undefined ? {} : { controlPort: options.controlPort }),
      ...(options.controlMounts === undefined ? {} : { controlMounts: options.controlMounts }),
      host: options.host,
      ...(options.controlHost === undefined ? {} : { controlHost: options.controlHost }),
      ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
      clock: { mode: options.clock },
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.warn === undefined ? {} : { warn: options.warn }),
    });
  } catch (error) {
    throw new FleetStartError('controller', 'the fleet controller did not start', { cause: error });
  }
  const pbxs: FleetPbx[] = [];
  const close = async () => {
    const running = pbxs.splice(0);
    await Promise.all(running.map(({ pbx }) => pbx.close()));
    await controller.close();
  };
  const fleet: Fleet = {
    urls: controller.urls,
    control: controller.control,
    controller,
    fixture,
    pbxs,
    pool,
    close,
  };
  try {
    // A restored data directory gets this run's PBX sites and keys.
    await alignFixture(controller, fixture);
    if (options.part === 'controller') return fleet;
    const ingest = connectableTcp(controller.urls.ingest);
    // A pooled fleet's PBXs link over in-process pipes: the same lines, sessions and batches as
    // over TCP, without a socket pair per PBX (2 descriptors per PBX instead of 4, issue 22).
    const dial = pool ? { dial: () => connectInProcess(controller) } : {};
    const registrations: ControllerSettings[] = (fixture.pbxs ?? []).map(({ siteId, key }) => ({
      ingest,
      siteId,
      key,
      ...dial,
    }));
    const {
      resolveScenario,
      shareableState,
      siteControlRoutes,
      start: startPbx,
      startFieldActivity,
    } = await import('../pbx/index.ts');
    const controlUrl = connectableHttp(controller.urls.control);
    /** What PBX `index` starts with beyond its options: its pool address and ports, where its control routes are mounted, its link. */
    const placed = (index: number, settings: ControllerSettings): Partial<PbxStartOptions> =>
      pool
        ? {
            host: addressAt(pool.addresses, index),
            monitoringPort: pool.dataPort,
            webPort: pool.webPort,
            controlMountedAt: SiteControlPlane.siteUrl(controlUrl, settings.siteId),
            controller: settings,
          }
        : { controller: settings };
    const { activity } = options;
    /** After PBX `index` started: its control routes on the site-addressed plane (pooled fleets), its activity. */
    const started = (settings: ControllerSettings, pbx: PbxHandle) => {
      siteControl?.add(settings.siteId, () => siteControlRoutes(pbx));
      if (activity) startFieldActivity(pbx, { ...activity, siteId: settings.siteId });
    };
    const [first, ...rest] = registrations;
    if (!first) return fleet;
    const primaryOptions = options.primary?.options?.(controller, fixture) ?? options.pbx;
    let primary: PbxHandle;
    try {
      primary = await startPbx({ ...primaryOptions, ...placed(0, first) });
    } catch (error) {
      throw new FleetStartError('pbx', `the PBX of ${first.siteId} did not start`, { cause: error });
    }
    pbxs.push({ siteId: first.siteId, pbx: primary });
    started(first, primary);
    options.primary?.started?.(primary);
    // A pooled fleet's PBXs start from one state, resolved once (not read, validated and merged
    // thousands of times) and shared, frozen, as every PBX's baseline.
    const base =
      pool && typeof options.pbx.scenario !== 'object'
        ? {
            ...options.pbx,
            scenario: shareableState(
              resolveScenario(options.pbx.scenario ?? 'healthy', options.pbx.clock?.start ?? Date.now()),
            ),
          }
        : options.pbx;
    const slots = new Array<PbxHandle | undefined>(rest.length);
    let next = 0;
    let failure: FleetStartError | undefined;
    const worker = async () => {
      while (failure === undefined && next < rest.length) {
        const at = next++;
        const settings = rest[at]!;
        try {
          const pbx = await startPbx({ ...base, ...placed(at + 1, settings) });
          slots[at] = pbx;
          started(settings, pbx);
        } catch (error) {
          failure ??= new FleetStartError('pbx', `the PBX of ${settings.siteId} did not start`, {
            cause: error,
          });
        }
      }
    };
    const workers = pool ? START_CONCURRENCY : 1;
    await Promise.all(Array.from({ length: Math.min(workers, rest.length) }, worker));
    rest.forEach(({ siteId }, at) => {
      const pbx = slots[at];
      if (pbx) pbxs.push({ siteId, pbx });
    });
    if (failure !== undefined) throw failure;
    return fleet;
  } catch (error) {
    await close();
    throw error;
  }
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableHttp(url: string): string {
  return url.replace(/^(https?):\/\/(0\.0\.0\.0|\[::\]|::):/, '$1://127.0.0.1:');
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableTcp(url: string): string {
  return url.replace(/^tcp:\/\/(0\.0\.0\.0|\[::\]|::):/, 'tcp://127.0.0.1:');
}
