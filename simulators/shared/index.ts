// The front door of simulators/shared/, the floor every simulator stands on: what the harness,
// benches and scripts may use of it. The simulators themselves import its files directly; nothing
// outside simulators/ imports past this file (test/architecture/import-graph.test.ts).

/** The virtual clock a simulator runs on, and a duration clock for real-time limits. */
export { durationClock, VirtualClock } from './clock.ts';
/** The failure of a derived control client: status, code and one-line message. */
export { ControlError } from './control/control-error.ts';
/** The typed client of a group of control operations. */
export type { ControlClient } from './control/control-operation.ts';
/** What a control plane's OpenAPI document says beside its operations. */
export type { ControlDocumentHead } from './control/openapi-document.ts';

/**
 * The generator of a control plane's OpenAPI document (npm run generate:openapi), loaded when asked
 * for: it needs yaml and zod, which the CLI's start-up does not load.
 */
export const loadControlDocuments = () => import('./control/openapi-document.ts');
/** A bearer token for a control plane beyond loopback, and whether a host is loopback. */
export { generateControlToken, isLoopbackHost } from './control-token.ts';
/** The listener of a control plane (a shard's, which only serves the PBXs mounted on it). */
export { startControlServer } from './http/control-server.ts';
/** A self-signed certificate for a test server's TLS. */
export { createSelfSignedTls, type SelfSignedTls } from './http/self-signed-tls.ts';
/** The PBX control planes one listener serves at `/pbx/{siteId}`. */
export { SiteControlPlane } from './http/site-control-plane.ts';
/** Creates a folder and its parents, with a one-line error. */
export { makeDirs } from './make-dirs.ts';
/** One connection carrying many PBXs' ingest sessions (a shard's link to the controller). */
export { MuxDialer } from './wire/ingest-mux.ts';
/** The line protocol of the PBX → controller ingest link. */
export { encodeLine, LineReader, parseLine, type RefusalReason } from './wire/ingest-protocol.ts';
/** What a PBX reports about itself to its controller. */
export type { PbxInventory } from './wire/pbx-inventory.ts';
