import type { PbxHandle, PbxStartOptions } from '../pbx/index.ts';
import { MuxDialer, type RefusalReason, SiteControlPlane, startControlServer } from '../shared/index.ts';
import { addressAt } from './address-pool.ts';
import type { FleetPool } from './demo-fleet.ts';
import { demoFixture } from './demo-fleet.ts';
import { derivedIngestKey, type Shard, shardSlice } from './shards.ts';

/** PBXs a shard starts at the same time. */
const START_CONCURRENCY = 64;

export interface ShardOptions {
  shard: Shard;
  /** PBXs in the whole fleet. */
  count: number;
  /** The controller's ingest listener, `tcp://host:port` (its Service name on Kubernetes). */
  controller: string;
  secret: string;
  pool: FleetPool;
  /** What every PBX starts with (scenario, clock). */
  pbx: PbxStartOptions;
  controlHost: string;
  controlPort: number;
  controlToken?: string;
  activity?: { seed: string; eventsPerHour?: number };
  /** Hears each refusal of a PBX's link by the controller (issue 29 item 5). */
  onRefused?: (siteId: string, reason: RefusalReason) => void;
  /** Hears each failure to reach the controller at all (the links retry with back-off). */
  onUnreachable?: (why: string) => void;
}

export interface RunningShard {
  from: number;
  to: number;
  siteIds: string[];
  /** This shard's control plane: PBX of site X at `${controlUrl}/pbx/X`. */
  controlUrl: string;
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
 * events, acknowledgements and cuts, but no descriptor of its own on either side.
 */
export async function startShard(options: ShardOptions): Promise<RunningShard> {
  const { defaultFixture } = await import('../fleet-controller/index.ts');
  const { start, resolveScenario, shareableState, siteControlRoutes, startFieldActivity } = await import(
    '../pbx/index.ts'
  );
  // Every PBX of the shard starts from one state, resolved once and shared (frozen) as their baseline.
  const scenario = shareableState(
    typeof options.pbx.scenario === 'object'
      ? structuredClone(options.pbx.scenario)
      : resolveScenario(options.pbx.scenario ?? 'healthy', options.pbx.clock?.start ?? Date.now()),
  );
  const { from, to } = shardSlice(options.shard, options.count);
  const sites = (demoFixture(defaultFixture(), options.count, () => '').pbxs ?? []).slice(from, to);
  const plane = new SiteControlPlane();
  const control = await startControlServer([], {
    host: options.controlHost,
    port: options.controlPort,
    sites: plane,
    ...(options.controlToken === undefined ? {} : { token: options.controlToken }),
  });
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
    let failure: unknown;
    const worker = async () => {
      while (failure === undefined && next < sites.length) {
        const at = next++;
        const { siteId } = sites[at]!;
        try {
          const pbx = await start({
            ...options.pbx,
            scenario,
            host: addressAt(options.pool.addresses, from + at),
            monitoringPort: options.pool.dataPort,
            webPort: options.pool.webPort,
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
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, sites.length) }, worker));
    if (failure !== undefined) throw failure;
  } catch (error) {
    await close();
    throw error;
  }
  return { from, to, siteIds: sites.map((s) => s.siteId), controlUrl: control.url, pbxs, close };
}
