import { createServer, type Server } from 'node:http';
import { VirtualClock, type VirtualClockOptions } from '../shared/clock.ts';
import { startControlPlane } from '../shared/control/start-control-plane.ts';
import type { RawMount } from '../shared/http/control-server.ts';
import { closeServer, listen } from '../shared/http/listen.ts';
import type { SiteControlPlane } from '../shared/http/site-control-plane.ts';
import { boundSlowClients, HTTP_SERVER_OPTIONS } from '../shared/http/slow-clients.ts';
import { createApiCore, type RequestLogger } from './api/api-core.ts';
import { answerAfterHalfClose, toNodeHandler } from './api/http-adapter.ts';
import type { FleetControl } from './control/fleet-control.ts';
import { FLEET_DIALECT } from './control/fleet-control-plane.ts';
import { fleetEffects } from './control/fleet-effects.ts';
import { FLEET_CONTROL_OPERATIONS } from './control/fleet-operations.ts';
import { attachParts } from './controller-parts.ts';
import { type IngestServer, startIngestServer } from './ingest/ingest-server.ts';
import { createMcpHandler, MCP_PATH } from './mcp/mcp-handler.ts';
import { Authenticator } from './model/authenticator.ts';
import { defaultFixture, type FleetFixture } from './model/fleet-fixture.ts';
import { FleetState } from './model/fleet-state.ts';
import type { ScryptCost } from './model/password-hash.ts';
import { type FleetDatabase, openFleetDatabase } from './persistence/fleet-database.ts';

export interface FleetStartOptions {
  /** People, sites, rights, tokens and PBX keys to start with (default: `defaultFixture()`). */
  fixture?: FleetFixture;
  /** Address every listener binds; default 127.0.0.1. */
  host?: string;
  /** Port of the REST + MCP listener; default 0. */
  apiPort?: number;
  controlPort?: number;
  /** Address of the control plane; default 127.0.0.1 whatever `host` says (issue 12, defect 7). */
  controlHost?: string;
  /** Bearer token the control plane requires; needed when `controlHost` is not loopback. */
  controlToken?: string;
  ingestPort?: number;
  /**
   * PBXs whose control planes this controller's control plane also serves, at `/pbx/{siteId}/…`
   * (one control plane for a whole fleet, issue 22); PBXs are added to it as they start.
   */
  siteControl?: SiteControlPlane;
  /** Handlers the control listener serves beside its operations (the console at `/console`, issue 32). */
  controlMounts?: readonly RawMount[];
  clock?: VirtualClockOptions;
  /** Lower scrypt cost for tests; the default is `DEFAULT_SCRYPT_COST`. */
  scryptCost?: ScryptCost;
  /** Receives one entry per request; never credentials (issue 4, section 5). */
  log?: RequestLogger;
  /**
   * Receives the controller's warnings for its operator, one line each: a refused PBX link, once
   * per peer and reason, with the reason and never the key (issue 29 item 5). Default: none.
   */
  warn?: (line: string) => void;
  /**
   * Keep the state in an embedded LMDB database in this directory (created if needed) instead of
   * in memory only: a new directory gets `fixture`, an existing one is restored as it was and
   * `fixture` only serves the control plane's reset (docs/fleet-controller.md, "Persistence").
   */
  dataDir?: string;
}

export interface FleetUrls {
  /** `{controller_url}`: REST is under `${api}/api/v1` (FLEET-BASE-PATH). */
  api: string;
  /** The MCP endpoint, Streamable HTTP: `${api}/mcp`. */
  mcp: string;
  /** Control plane base URL (schemas/fleet-control.openapi.yaml). */
  control: string;
  /** The PBX ingest listener, `tcp://host:port` (EVENT-UNSPEC-TRANSPORT). */
  ingest: string;
}

export interface FleetHandle {
  urls: FleetUrls;
  control: FleetControl;
  close(): Promise<void>;
}

/**
 * Starts a simulated fleet controller (maintenance-and-fleet-api.md, part B): REST and MCP on one
 * listener, the PBX ingest listener, and the control plane, all sharing one `FleetState`.
 * State is kept in memory, or with `dataDir` in an embedded database that survives a restart.
 */
export async function start(options: FleetStartOptions = {}): Promise<FleetHandle> {
  const host = options.host ?? '127.0.0.1';
  const clock = new VirtualClock(options.clock);
  const fixture = structuredClone(options.fixture ?? defaultFixture());
  const log = options.log ?? (() => {});
  const servers: Server[] = [];
  let ingest: IngestServer | undefined;
  let database: FleetDatabase | null = null;
  try {
    database = options.dataDir === undefined ? null : await openFleetDatabase(options.dataDir);
    const state = new FleetState(clock, options.scryptCost, database?.journal);
    const snapshot = database?.read() ?? null;
    if (snapshot) {
      state.restore(snapshot);
      // The controller clock never runs backwards across a restart (history stays in order).
      if (snapshot.counters.clockAt > clock.now()) clock.set(snapshot.counters.clockAt);
    } else {
      await state.load(fixture);
    }
    const authenticator = new Authenticator(state);
    const api = toNodeHandler(createApiCore(state, authenticator, log));
    const mcp = createMcpHandler(state, authenticator, log);
    const apiServer = createServer(HTTP_SERVER_OPTIONS, (req, res) => {
      // The MCP path itself, with or without a query (no split per request: issue 31 §3).
      const url = req.url ?? '/';
      const toMcp =
        url.startsWith(MCP_PATH) && (url.length === MCP_PATH.length || url[MCP_PATH.length] === '?');
      void (toMcp ? mcp(req, res) : api(req, res));
    });
    answerAfterHalfClose(apiServer);
    boundSlowClients(apiServer);
    servers.push(apiServer);
    const { port: apiPort } = await listen(apiServer, { port: options.apiPort ?? 0, host });
    const ingestServer = await startIngestServer(state, {
      host,
      port: options.ingestPort ?? 0,
      log,
      ...(options.warn === undefined ? {} : { warn: options.warn }),
    });
    ingest = ingestServer;
    const controlServer = await startControlPlane(
      FLEET_CONTROL_OPERATIONS,
      fleetEffects({ state, clock, fixture, ingestUrl: () => ingestServer.url }),
      {
        dialect: FLEET_DIALECT,
        host: options.controlHost ?? '127.0.0.1',
        port: options.controlPort ?? 0,
        log: (entry) => log({ face: 'control', ...entry }),
        ...(options.siteControl === undefined ? {} : { sites: options.siteControl }),
        ...(options.controlMounts === undefined ? {} : { mounts: options.controlMounts }),
        ...(options.controlToken === undefined ? {} : { token: options.controlToken }),
      },
    );
    const control = controlServer.client;
    servers.push(controlServer.server);
    const apiUrl = `http://${host}:${apiPort}`;
    const openDatabase = database;
    let closing: Promise<void> | undefined;
    const parts = { state, clock, authenticator, ingest: ingestServer, database: openDatabase };
    const shutdown = async () => {
      await Promise.all([ingestServer.close(), ...servers.map(closeServer)]);
      if (openDatabase) {
        state.flush();
        await openDatabase.close();
      }
      clock.dispose();
    };
    const handle: FleetHandle = {
      urls: {
        api: apiUrl,
        mcp: `${apiUrl}${MCP_PATH}`,
        control: controlServer.url,
        ingest: ingestServer.url,
      },
      control,
      close() {
        closing ??= shutdown();
        return closing;
      },
    };
    return attachParts(handle, parts);
  } catch (error) {
    await Promise.all([ingest?.close(), ...servers.map(closeServer)]);
    await database?.close();
    clock.dispose();
    throw error;
  }
}
