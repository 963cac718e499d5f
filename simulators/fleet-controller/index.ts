// The front door: everything outside simulators/fleet-controller/ imports the controller from this
// file only (test/architecture/import-graph.test.ts).
export { SiteControlPlane } from '../shared/http/site-control-plane.ts';
export { type FleetControl, httpFleetControl } from './control/fleet-control.ts';
/** What schemas/fleet-control.openapi.yaml is generated from (scripts/generate-control-openapi.ts). */
export { FLEET_CONTROL_DOCUMENT } from './control/fleet-control-document.ts';
export {
  acceptedEvents,
  alignFixture,
  attentionHistory,
  connectInProcess,
  ingestConnections,
  linkedSites,
} from './handle-functions.ts';
export { evaluateFindings } from './model/findings.ts';
export { defaultFixture, emptyFixture, type FleetFixture } from './model/fleet-fixture.ts';
export type { ScryptCost } from './model/password-hash.ts';
export { DataDirInUseError } from './persistence/data-dir-lock.ts';
export { DataFormatError, type FleetDatabase } from './persistence/fleet-database.ts';
export { type FleetHandle, type FleetStartOptions, type FleetUrls, start } from './start-controller.ts';
