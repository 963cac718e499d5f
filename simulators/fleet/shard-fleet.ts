import type { FieldActivityOptions, PbxHandle, PbxStartOptions } from '../pbx/index.ts';
import { MuxDialer, type RefusalReason, SiteControlPlane, startControlServer } from '../shared/index.ts';
import { addressAt, type FleetPool, slicePool } from './address-pool.ts';
import { demoFixture } from './demo-fixture.ts';
import { FDS_PER_SHARD_PBX, preflightFleet } from './fleet-preflight.ts';
import { FleetStartError } from './fleet-start-error.ts';
import { derivedIngestKey, type Shard, shardSlice } from './shards.ts';

/** PBXs a shard starts at the same time. */
const START_CONCURRENCY = 64;

/** Shard i/N of the PBXs of a fleet whose controller runs elsewhere (`simulate --shard i/N`). */
export interface ShardOptions {
  part: 'shard';
  shard: Shard;
  /** PBXs in the whole fleet. */
  pbxCount: number;
  /** The controller's ingest listener, `tcp://host:port` (its Service name on Kubernetes). */
  controller: string;
  secret: string;
  pool: FleetPool;
  /** What every PBX starts with (scenario, clock). */
  pbx: PbxStartOptions;
  controlHost: string;
  controlPort: number;
  controlToken?: string;
  activity?: FieldActivityOptions;
  /** Hears each refusal of a PBX's link by the controller (issue 29 item 5). */
  onRefused?: (siteId: string, reason: RefusalReason) => void;
  /** Hears each failure to reach the controller at all (the links retry with back-off). */
  onUnreachable?: (why: string) => void;
}

/** A running shard: its slice of the fleet's PBXs (indexes `[from, to)` of the whole fleet). */
export interface FleetShard {
  /** This shard's control plane: PBX of site X at `${urls.control}/pbx/X`. */
  urls: { control: string };
  from: number;
  to: number;
  siteIds: string[];
  pbxs: PbxHandle[];
  close(): Promise<void>;
}

/**
 * `simulate --shard i/N --controller <ingest URL>` (issue 22): the PBXs of shard i of a fleet
 * whose controller runs elsewhere (`simulate --fleet-only`). The shard takes its contiguous slice
 * of the fleet's sites (the same order as the controller's fixture) and of the address pool (PBX j
 * of the whole fleet on the pool's j-th address), links every PBX to the controller with the key
 * derived from the fleet secret, and serves the PBXs' control routes at `/pbx/{siteId}` on a
 * control plane of its own. Every PBX's ingest session is a channel of the shard's one
 * multiplexed connection to the controller (issue 31 §4, ingest-mux.ts): its own hello, key,
 * events, acknowledgements and cuts, but no descriptor of its own on either side. Before the
 * first PBX starts, the pool must reach the shard's slice and the slice must pass the preflight
 * (a {@link FleetStartError} of part `preflight`); a PBX or the control plane that does not start
 * is one of part `pbx` or `controller`, after what had started is closed.
 */
export async function startShard(options: ShardOptions): Promise<FleetShard> {
  const { shard, pool } = options;
  const { from, to } = shardSlice(shard, options.pbxCount);
  if (to > pool.addresses.size)
    throw new FleetStartError(
      'preflight',
      `the address pool ${pool.addresses.spec} holds ${pool.addresses.size} addresses, fewer than the ${to} this shard reaches`,
    );
  if (to > from) {
    const reason = await preflightFleet({
      count: to - from,
      pool: slicePool(pool.addresses, from, to - from),
      ports: [pool.dataPort, pool.webPort],
      descriptorsPerPbx: FDS_PER_SHARD_PBX,
      shardOf: { index: shard.index + 1, total: shard.total, pbxCount: options.pbxCount },
    });
    if (reason) throw new FleetStartError('preflight', reason);
  }
  const { defaultFixture } = await import('../fleet-controller/index.ts');
  const { resolveScenario, shareableState, siteControlRoutes, start, startFieldActivity } = await import(
    '../pbx/index.ts'
  );
  // Every PBX of the shard starts from one state, resolved once and shared (frozen) as their baseline.
  const scenario = shareableState(
    typeof options.pbx.scenario === 'object'
      ? structuredClone(options.pbx.scenario)
      : resolveScenario(options.pbx.scenario ?? 'healthy', options.pbx.clock?.start ?? Date.now()),
  );
  const sites = (demoFixture(defaultFixture(), options.pbxCount, () => '').pbxs ?? []).slice(from, to);
  const plane = new SiteControlPlane();
  let control: Awaited<ReturnType<typeof startControlServer>>;
  try {
    control = await startControlServer([], {
      host: options.controlHost,
      port: options.controlPort,
      sites: plane,
      ...(options.controlToken === undefined ? {} : { token: options.controlToken }),
    });
  } catch (error) {
    throw new FleetStartError('controller', "the shard's control plane did not start", { cause: error });
  }
  const pbxs: PbxHandle[] = [];
  const { onRefused } = options;
  const dialer = new MuxDialer(options.controller, options.onUnreachable);
  const close = async () => {
    await Promise.all(pbxs.splice(0).map((pbx) => pbx.close()));
    dialer.close();
    await control.close();
  };
  try {
    let next = 0;
    let failure: FleetStartError | undefined;
    const worker = async () => {
      while (failure === undefined && next < sites.length) {
        const at = next++;
        const { siteId } = sites[at]!;
        try {
          const pbx = await start({
            ...options.pbx,
            scenario,
            host: addressAt(pool.addresses, from + at),
            monitoringPort: pool.dataPort,
            webPort: pool.webPort,
            controlMountedAt: SiteControlPlane.siteUrl(control.url, siteId),
            controller: {
              ingest: options.controller,
              siteId,
              key: derivedIngestKey(options.secret, siteId),
              dial: dialer.dial,
              ...(onRefused ? { onRefused: (reason: RefusalReason) => onRefused(siteId, reason) } : {}),
            },
          });
          pbxs.push(pbx);
          plane.add(siteId, () => siteControlRoutes(pbx));
          if (options.activity) startFieldActivity(pbx, { ...options.activity, siteId });
        } catch (error) {
          failure ??= new FleetStartError('pbx', `the PBX of ${siteId} did not start`, { cause: error });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, sites.length) }, worker));
    if (failure !== undefined) throw failure;
  } catch (error) {
    await close();
    throw error;
  }
  return { urls: { control: control.url }, from, to, siteIds: sites.map((s) => s.siteId), pbxs, close };
}
