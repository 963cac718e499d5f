// The front door of the simulated fleet controller: everything outside simulators/fleet-controller/
// imports the controller from this file only (test/architecture/import-graph.test.ts), and this
// file exports what an outside user may use and nothing else, each name with one line of doc
// (test/architecture/front-doors.test.ts). Nothing hands out the controller's inside at run time:
// what a harness needs is an operation of the control client or one of the named functions below.

export {
  /** One control plane for a whole fleet: each PBX's plane at `/pbx/{siteId}`, beside the controller's. */
  SiteControlPlane,
} from '../shared/http/site-control-plane.ts';
export {
  /** The controller's control plane as a typed client, derived from its declarations. */
  type FleetControl,
  /** The controller's control plane at a URL as a typed client over HTTP. */
  httpFleetControl,
} from './control/fleet-control.ts';
export {
  /** What schemas/fleet-control.openapi.yaml is generated from (scripts/generate-control-openapi.ts). */
  FLEET_CONTROL_DOCUMENT,
} from './control/fleet-control-document.ts';
export {
  /** Event messages accepted since start, read synchronously (as `stats().accepted` of the control client). */
  acceptedEvents,
  /** Makes a controller restored from a data directory serve a fixture's PBX sites and keys. */
  alignFixture,
  /** The acknowledgement history as stored, every partner's entries (for audits). */
  attentionHistory,
  /** A PBX link to the ingest listener through an in-process pipe instead of a socket (pooled fleets). */
  connectInProcess,
  /** TCP connections the ingest listener holds now (one per shard when multiplexed). */
  ingestConnections,
  /** How many sites have at least one PBX connected now. */
  linkedSites,
} from './handle-functions.ts';
export {
  /** The findings the controller shows for a site, from its reachability and the PBX's inventory. */
  evaluateFindings,
} from './model/findings.ts';
export {
  /** The demo people, sites, rights and tokens (Nordlicht and Südwind) a controller starts with by default. */
  defaultFixture,
  /** A controller with no one in it. */
  emptyFixture,
  /** The people, sites, rights, tokens and PBX keys a controller starts with; `reset()` returns to it. */
  type FleetFixture,
} from './model/fleet-fixture.ts';
export type {
  /** scrypt cost parameters; tests lower `N` to keep runs fast. */
  ScryptCost,
} from './model/password-hash.ts';
export {
  /** Another running controller has the data directory open. */
  DataDirInUseError,
} from './persistence/data-dir-lock.ts';
export {
  /** The data directory holds something this simulator cannot read. */
  DataFormatError,
} from './persistence/fleet-database.ts';
export {
  /** What a started controller gives: its URLs, its control client and `close()`. */
  type FleetHandle,
  /** How to start a controller: fixture, addresses, ports, clock, data directory, log. */
  type FleetStartOptions,
  /** The URLs of a started controller's listeners. */
  type FleetUrls,
  /** Starts a simulated fleet controller: REST and MCP, the ingest listener and the control plane on one state. */
  start,
} from './start-controller.ts';
