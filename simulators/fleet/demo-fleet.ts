import { randomBytes } from 'node:crypto';
import type { FleetFixture, FleetHandle, SiteControlPlane } from '../fleet-controller/index.ts';
import type {
  ControllerSettings,
  FieldActivityOptions,
  PbxHandle,
  PbxStartOptions,
  RawMount,
} from '../pbx/index.ts';
import { type AddressPool, addressAt } from './address-pool.ts';

/** Upper bound of `--pbx-count` with a listener set per PBX on `--host` and ephemeral ports. */
export const MAX_PBX_COUNT = 50;

/** Upper bound of `--pbx-count` for a pooled fleet (one address per PBX, issue 22). */
export const MAX_POOLED_PBX_COUNT = 100_000;

/** PBXs started at the same time while a pooled fleet comes up. */
const START_CONCURRENCY = 64;

/**
 * A pooled fleet (issue 22): PBX `i` of this process listens on `addresses[i]` on the same ports
 * as every other, the controller's control plane serves each PBX's control routes at
 * `/pbx/{siteId}` instead of one control listener per PBX, and each PBX's ingest link is an
 * in-process pipe to the controller's ingest listener.
 */
export interface FleetPool {
  addresses: AddressPool;
  /** Data endpoint port of every PBX (6556 on the real system). */
  dataPort: number;
  /** Web server port of every PBX. */
  webPort: number;
}

/** Partner that owns the sites added when `--pbx-count` exceeds the fixture's sites. */
const DEMO_SITE_OWNER = 'p-nordlicht';

export interface DemoFleetOptions {
  host: string;
  /** Address and token of the controller's control plane (default 127.0.0.1, no token). */
  controlHost?: string;
  controlToken?: string;
  clock: 'running' | 'frozen';
  /** PBXs in the fleet, the primary included (one site each). */
  pbxCount: number;
  /** `--data DIR`, already resolved; absent: in memory. */
  dataDir?: string;
  /** One address per PBX from this pool (issue 22); absent: every PBX on `host`, ephemeral ports. */
  pool?: FleetPool;
  /** The ingest key of each site (a sharded fleet derives them from its secret); default: fresh random keys. */
  keyFor?: (siteId: string) => string;
  /** Ports of the controller's listeners (default: any free port). */
  apiPort?: number;
  ingestPort?: number;
  controlPort?: number;
  /** Handlers the controller's control listener serves beside its operations (the console, issue 32). */
  controlMounts?: readonly RawMount[];
  /** Seed and rate of `--activity field`; absent: the PBXs change only when told to. */
  activity?: FieldActivityOptions;
  /** The controller's warnings for its operator (a refused PBX link, issue 29 item 5). */
  warn?: (line: string) => void;
}

/** A running controller and the PBX registrations for the fleet's sites, primary first. */
export interface DemoFleet {
  controller: FleetHandle;
  /** The fixture the controller was started with (the demo accounts come from it). */
  fixture: FleetFixture;
  /** One per PBX to start; `[0]` is for the primary PBX. */
  registrations: ControllerSettings[];
  /** Started with `startPeers`: the PBXs other than the primary, with their site. */
  peers: { siteId: string; pbx: PbxHandle }[];
  /** The pool the PBXs take their addresses from, when the fleet is pooled. */
  pool: FleetPool | null;
  /** The control plane that serves pooled PBXs' control routes at `/pbx/{siteId}`. */
  siteControl: SiteControlPlane | null;
  /** What PBX `index` (0: the primary) starts with beyond `options`: its pool address and ports, where its control routes are mounted. */
  pbxOptions(index: number): Partial<PbxStartOptions>;
  /** After PBX `index` started: mounts its control routes on the site-addressed plane (pooled fleets). */
  started(index: number, pbx: PbxHandle): void;
  /** Starts a PBX for every registration after the first, with `options` (ports 0, own clock). */
  startPeers(options: PbxStartOptions): Promise<void>;
  /** Closes the peers, then the controller. */
  close(): Promise<void>;
}

/**
 * `simulate`'s fleet (issue 4): a fleet controller with the default fixture (or the state kept in
 * `--data DIR`) and one PBX per site, so each simulated PBX forwards its attention events over the
 * real ingest link. Sites are taken in the fixture's order; beyond them, demo sites
 * `site-demo-<n>` owned by Nordlicht are added. The demo sites and every PBX's site and ingest key
 * are part of the fixture the controller starts with, so the control plane's reset (which reloads
 * the fixture, docs/fleet-controller.md) keeps the registrations and the PBXs' links reconnect by
 * themselves; a restored data directory is brought in line with the same fixture (missing sites
 * added, each PBX registered with its key). A controller that does not start (a busy or foreign
 * data directory) throws an error whose cause says why (the CLI reports it as a harness error).
 */
export async function startDemoFleet(options: DemoFleetOptions): Promise<DemoFleet> {
  const { alignFixture, connectInProcess, start, defaultFixture, SiteControlPlane } = await import(
    '../fleet-controller/index.ts'
  );
  const fixture = demoFixture(defaultFixture(), options.pbxCount, options.keyFor);
  const pool = options.pool ?? null;
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
    throw new Error('the fleet controller did not start', { cause: error });
  }
  const peers: DemoFleet['peers'] = [];
  const close = async () => {
    const running = peers.splice(0);
    await Promise.all(running.map(({ pbx }) => pbx.close()));
    await controller.close();
  };
  try {
    // A restored data directory holds an earlier run's keys: this run's PBX sites and keys are registered.
    await alignFixture(controller, fixture);
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
      start: startPbx,
      resolveScenario,
      shareableState,
      siteControlRoutes,
      startFieldActivity,
    } = await import('../pbx/index.ts');
    const controlUrl = connectableHttp(controller.urls.control);
    const pbxOptions = (index: number): Partial<PbxStartOptions> => {
      const settings = registrations[index];
      if (!pool || !settings) return {};
      return {
        host: addressAt(pool.addresses, index),
        monitoringPort: pool.dataPort,
        webPort: pool.webPort,
        controlMountedAt: SiteControlPlane.siteUrl(controlUrl, settings.siteId),
      };
    };
    const activity = options.activity;
    const started = (index: number, pbx: PbxHandle) => {
      const settings = registrations[index];
      if (!settings) return;
      siteControl?.add(settings.siteId, () => siteControlRoutes(pbx));
      if (activity) startFieldActivity(pbx, { ...activity, siteId: settings.siteId });
    };
    return {
      controller,
      fixture,
      registrations,
      peers,
      pool,
      siteControl,
      pbxOptions,
      started,
      async startPeers(options) {
        // A pooled fleet's PBXs start from one state, resolved once (not read, validated and
        // merged thousands of times) and shared, frozen, as every PBX's baseline.
        const base =
          pool && typeof options.scenario !== 'object'
            ? {
                ...options,
                scenario: shareableState(
                  resolveScenario(options.scenario ?? 'healthy', options.clock?.start ?? Date.now()),
                ),
              }
            : options;
        const rest = registrations.slice(1).map((settings, i) => ({ settings, index: i + 1 }));
        const slots = new Array<PbxHandle | undefined>(rest.length);
        let next = 0;
        let failure: unknown;
        const worker = async () => {
          while (failure === undefined && next < rest.length) {
            const at = next++;
            const { settings, index } = rest[at]!;
            try {
              const pbx = await startPbx({ ...base, ...pbxOptions(index), controller: settings });
              slots[at] = pbx;
              started(index, pbx);
            } catch (error) {
              failure ??= error;
            }
          }
        };
        const workers = pool ? START_CONCURRENCY : 1;
        await Promise.all(Array.from({ length: Math.min(workers, rest.length) }, worker));
        rest.forEach(({ settings }, at) => {
          const pbx = slots[at];
          if (pbx) peers.push({ siteId: settings.siteId, pbx });
        });
        if (failure !== undefined) throw failure;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `base` with demo sites up to `count` sites (owned by Nordlicht when the fixture has it) and a
 * PBX (site and fresh ingest key) for each of the first `count` sites, in the fixture's order.
 */
export function demoFixture(
  base: FleetFixture,
  count: number,
  keyFor: (siteId: string) => string = () => randomBytes(32).toString('base64url'),
): FleetFixture {
  const fixture = structuredClone(base);
  const owner = fixture.partners.some((p) => p.id === DEMO_SITE_OWNER);
  const taken = new Set(fixture.sites.map((s) => s.id));
  for (let n = fixture.sites.length + 1; fixture.sites.length < count; n++) {
    const id = `site-demo-${n}`;
    if (taken.has(id)) continue;
    taken.add(id);
    fixture.sites.push({ id, displayName: `Demo-Standort ${n}` });
    if (owner) fixture.rights.push({ partnerId: DEMO_SITE_OWNER, siteId: id, kind: 'own' });
  }
  fixture.pbxs = fixture.sites.slice(0, count).map((site) => ({ siteId: site.id, key: keyFor(site.id) }));
  return fixture;
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableHttp(url: string): string {
  return url.replace(/^(https?):\/\/(0\.0\.0\.0|\[::\]|::):/, '$1://127.0.0.1:');
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableTcp(url: string): string {
  return url.replace(/^tcp:\/\/(0\.0\.0\.0|\[::\]|::):/, 'tcp://127.0.0.1:');
}
