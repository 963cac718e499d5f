import type { Server } from 'node:http';
import { type Clock, durationClock, VirtualClock, type VirtualClockOptions } from '../shared/clock.ts';
import { controlPlane, startControlPlane } from '../shared/control/start-control-plane.ts';
import type { ControlRoute } from '../shared/http/control-route.ts';
import type { RawMount } from '../shared/http/control-server.ts';
import { closeServer } from '../shared/http/listen.ts';
import { createSelfSignedTls } from '../shared/http/self-signed-tls.ts';
import type { WebRoute } from '../shared/http/web-route.ts';
import { activityEffects } from './activity/activity-effects.ts';
import { FieldActivity } from './activity/field-activity.ts';
import { consoleEffects } from './control/console-effects.ts';
import { stateEffects } from './control/state-effects.ts';
import { attentionEffects } from './events/attention-effects.ts';
import { AttentionForwarder } from './events/attention-forwarder.ts';
import type { ControllerSettings } from './events/controller-link.ts';
import { resolveScenario } from './load-scenario.ts';
import { createMaintenance } from './maintenance/create-maintenance.ts';
import { MAINTENANCE_BASE_PATH } from './maintenance/maintenance-api.ts';
import { createPackageDownloadHandler, MODULE_DOWNLOAD_PREFIX } from './mkp/package-download.ts';
import { MonitoringEndpoint } from './monitoring/endpoint/monitoring-endpoint.ts';
import { PBX_CONTROL_OPERATIONS, type PbxControl } from './pbx-control.ts';
import { attachParts } from './pbx-parts.ts';
import type { ReplayBinding } from './replay.ts';
import { Resolver, type ResolverOptions } from './resolver/resolver.ts';
import { resolverEffects } from './resolver/resolver-effects.ts';
import { RESOLVER_OVERLAY_RULES } from './resolver/resolver-overlay-rules.ts';
import { SnapshotCache } from './snapshot/snapshot.ts';
import { isPbxRestarting } from './state/pbx-restarting.ts';
import { freezeState } from './state/state-copy.ts';
import { PbxStore } from './state/store.ts';
import type { PbxState } from './state/types.ts';
import { startWebServer } from './web/web-server.ts';
import { snapshotMonitoringData } from './xmlrpc/snapshot-monitoring-data.ts';
import { createXmlRpcHandler } from './xmlrpc/xmlrpc-handler.ts';

export interface PbxStartOptions {
  /** A scenario name from simulators/pbx/scenarios/ (default `healthy`) or a complete state. */
  scenario?: string | PbxState;
  /** Address every listener binds; default 127.0.0.1. */
  host?: string;
  /** Port of the data endpoint; default: the scenario's (6556). Tests pass 0 for an ephemeral port. */
  monitoringPort?: number;
  /** Port of the PBX web server (XML-RPC, maintenance API); default 0. */
  webPort?: number;
  /** Port of the control plane; default 0. */
  controlPort?: number;
  /**
   * Address the control plane binds; default 127.0.0.1 whatever `host` says, since the control
   * plane can reset the state and mint maintenance tokens (issue 12, defect 7).
   */
  controlHost?: string;
  /** Bearer token the control plane requires; needed when `controlHost` is not loopback. */
  controlToken?: string;
  /**
   * Start no control listener of its own: a site-addressed plane of the whole fleet serves this
   * PBX's routes (`siteControlRoutes(handle)`) at this URL, `…/pbx/{siteId}` (issue 22), and
   * `urls.control` says so. `controlPort`, `controlHost` and `controlToken` are then unused.
   */
  controlMountedAt?: string;
  /**
   * `false`: start no control listener at all; the PBX is driven through `control`, the derived
   * client in process, only, and `urls.control` is `in-process:`. certify-plugin's scenario PBX
   * runs so: a plug-in under certification finds no control plane to change its PBX (issue 28 §4).
   */
  controlListener?: boolean;
  /** Handlers the control listener serves beside the operations (the console, issue 32). */
  controlMounts?: readonly RawMount[];
  clock?: VirtualClockOptions;
  /**
   * The monotonic clock the PBX times its waits on: the data endpoint's raw-mode grace and the
   * web resolver's lookups (clock.ts, `durationClock`). Default: real time. A harness that owns
   * this PBX in its own process passes one it can advance, so a silent client's grace and a
   * reference endpoint's answer delay pass without sleeping; the PBX measures them the same.
   */
  durationClock?: Clock;
  /**
   * Serve the web server (XML-RPC, maintenance API) over HTTPS with a self-signed certificate made
   * at start, as the real system serves 443 (clients will try TLS).
   */
  https?: boolean;
  /**
   * The fleet controller to forward attention events to (`registerPbx` of its control plane gives
   * `ingest` and `key`); without one, forwarded events wait in the 20-message buffer.
   */
  controller?: ControllerSettings;
  /** Options of the web resolver, e.g. the certificates its runtime trusts (RESOLVER-TLS-TRUST-STORE). */
  resolver?: ResolverOptions;
  /**
   * Tests only: wraps each route of the web server, e.g. to seed a deviation that
   * `pbx-conformance fuzz` must find (test/fuzz/). Absent: the routes as they are.
   */
  wrapWebRoute?: (route: WebRoute) => WebRoute;
  /**
   * Serve a recording (`simulate --recording`, simulators/pbx/replay.ts): the data
   * endpoint and the XML-RPC data queries answer with its bytes; the state machine stays the
   * simulator's. Give the recording's imported state as `scenario`.
   */
  replay?: ReplayBinding;
}

export interface PbxUrls {
  /** `{base_url}` of the specs: XML-RPC is at `${web}/xml-rpc`. */
  web: string;
  /** Control plane base URL (schemas/pbx-control.openapi.yaml). */
  control: string;
  /** The data endpoint as `tcp://host:port`, or `null` when it is not listening. */
  monitoring: string | null;
}

export interface PbxHandle {
  urls: PbxUrls;
  control: PbxControl;
  close(): Promise<void>;
}

/**
 * Starts a simulated PBX: data endpoint, web server (XML-RPC, maintenance API), attention-event
 * forwarding to a fleet controller, the web resolver client, control plane, all on one shared state.
 */
export async function start(options: PbxStartOptions = {}): Promise<PbxHandle> {
  const host = options.host ?? '127.0.0.1';
  const clock = new VirtualClock(options.clock);
  const scenario = options.scenario ?? 'healthy';
  // A frozen state (`shareableState`: a shard's, a pooled fleet's) is shared by every PBX starting
  // from it; any other is resolved into this PBX's own. Frozen either way, it is the store's
  // baseline as it is, and only the listener's address differs per PBX (issue 31 §4).
  const base =
    typeof scenario !== 'string' && Object.isFrozen(scenario)
      ? scenario
      : freezeState(resolveScenario(scenario, clock.now()));
  const monitoring = { ...base.monitoring, host };
  if (options.monitoringPort !== undefined) monitoring.port = options.monitoringPort;
  const initial: PbxState = Object.freeze({ ...base, monitoring: Object.freeze(monitoring) });
  const store = new PbxStore(clock, initial);
  const cache = new SnapshotCache(store);
  const ownWaits = options.durationClock ? undefined : durationClock();
  const waits: Clock = options.durationClock ?? (ownWaits as VirtualClock);
  const replay = options.replay?.(store, snapshotMonitoringData(store, cache));
  const endpoint = new MonitoringEndpoint(store, cache, {
    durationClock: waits,
    ...(replay ? { answerOverride: (request) => replay.endpointAnswer(request) } : {}),
  });
  const maintenance = createMaintenance(store);
  // Faces that keep records outside the state (tokens, queued commands) drop them on reset.
  store.on('reset', () => maintenance.reset());
  // Follows the store's reset by itself.
  const events = new AttentionForwarder(store, { controller: options.controller ?? null });
  const resolver = new Resolver(store, { ...options.resolver, durationClock: waits });
  const activity = new FieldActivity(store, events);
  const servers: Server[] = [];
  const shutdown = async () => {
    await Promise.all([endpoint.close(), ...servers.map(closeServer)]);
    activity.stop();
    await events.close();
    maintenance.close();
    clock.dispose();
    ownWaits?.dispose();
  };
  try {
    await endpoint.apply();
    const web = await startWebServer({
      host,
      port: options.webPort ?? 0,
      routes: [
        {
          prefix: '/xml-rpc',
          handle: createXmlRpcHandler(store, cache, replay ? { data: replay.xmlrpcData } : {}),
        },
        { prefix: MAINTENANCE_BASE_PATH, handle: maintenance.handler },
        { prefix: MODULE_DOWNLOAD_PREFIX, handle: createPackageDownloadHandler(() => store.read().modules) },
      ].map((route) => options.wrapWebRoute?.(route) ?? route),
      tls: options.https ? await createSelfSignedTls({ hosts: ['localhost', host] }) : undefined,
      unavailableFor: () => {
        const state = store.read();
        const now = clock.now();
        return isPbxRestarting(state, now) ? (state.maintenance.restartingUntil - now) / 1000 : null;
      },
    });
    servers.push(web.server);
    const effects = () => ({
      ...stateEffects(store, cache, endpoint, RESOLVER_OVERLAY_RULES),
      ...resolverEffects(resolver),
      ...maintenance.effects,
      ...attentionEffects(events, store),
      ...activityEffects(activity),
      ...consoleEffects(store, endpoint),
    });
    // A PBX mounted on a fleet's control plane (`/pbx/{siteId}`) has no listener of its own, nor
    // has one driven only in process (`controlListener: false`, certify-plugin's scenario PBX).
    // A mounted PBX builds its routes and client on first use: most of a shard's thousands are
    // never addressed, and their closures were a fifth of each PBX's memory (issue 31 §4).
    let plane: { url: string; routes: readonly ControlRoute[]; client: PbxControl } | undefined =
      options.controlListener === false
        ? { ...controlPlane(PBX_CONTROL_OPERATIONS, effects()), url: 'in-process:' }
        : options.controlMountedAt === undefined
          ? await startControlPlane(PBX_CONTROL_OPERATIONS, effects(), {
              host: options.controlHost ?? '127.0.0.1',
              port: options.controlPort ?? 0,
              ...(options.controlToken === undefined ? {} : { token: options.controlToken }),
              ...(options.controlMounts === undefined ? {} : { mounts: options.controlMounts }),
            }).then((listening) => {
              servers.push(listening.server);
              return listening;
            })
          : undefined;
    const mountedAt = options.controlMountedAt ?? '';
    const ownPlane = () => {
      plane ??= { ...controlPlane(PBX_CONTROL_OPERATIONS, effects()), url: mountedAt };
      return plane;
    };
    const urls: PbxUrls = {
      web: web.url,
      control: plane?.url ?? mountedAt,
      get monitoring() {
        const status = endpoint.status();
        return status.state === 'listening' ? `tcp://${status.host}:${status.port}` : null;
      },
    };
    const parts = {
      store,
      clock,
      cache,
      endpoint,
      maintenance,
      events,
      resolver,
      activity,
      get controlRoutes() {
        return ownPlane().routes;
      },
    };
    const handle = {
      urls,
      get control() {
        return ownPlane().client;
      },
      close: shutdown,
    };
    return attachParts(handle, parts);
  } catch (error) {
    await shutdown();
    throw error;
  }
}
