// The front door of the simulated customer endpoint (the resolver's HTTP server): everything
// outside simulators/customer-endpoint/ imports it from this file only
// (test/architecture/import-graph.test.ts), and it exports exactly the names curated in
// test/architecture/front-doors.test.ts.

/** Parses the parameters of an `Authorization: Digest …` value (names lower-cased), or null. */
export { parseDigestAuthorization } from './digest-server.ts';
export type {
  /** How an answer body is compressed: none, gzip, deflate, deflate-raw or br. */
  Compression,
  /** A Digest algorithm the endpoint offers: MD5, MD5-sess, SHA-256 or SHA-256-sess. */
  DigestAlgorithm,
  /** What the endpoint answers on one path: status, body, headers, delays, authentication. */
  EndpointBehaviour,
  /** The endpoint's whole configuration: behaviour per exact path and for every other path. */
  EndpointConfig,
} from './endpoint-behaviour.ts';
export {
  /** The operations of the endpoint's control plane, as the client offers them. */
  type EndpointControl,
  /** The customer endpoint's control client, over HTTP, for tests in any language's stead. */
  httpEndpointControl,
} from './endpoint-control.ts';
/** What schemas/customer-endpoint-control.openapi.yaml is generated from (scripts/generate-control-openapi.ts). */
export { ENDPOINT_CONTROL_DOCUMENT } from './endpoint-control-document.ts';
/** Where the running endpoint is: its base URL, its control URL and its certificate (PEM or null). */
export type { EndpointInfo } from './endpoint-operations.ts';
export {
  /** One request the endpoint received, as recorded (method, path, headers, body). */
  type RecordedRequest,
  /** The value of a recorded request's first header of that name (case-insensitive). */
  recordedHeader,
} from './recorded-request.ts';
export {
  /** The in-process control of a started endpoint: configuration, routes, recorded requests, reset. */
  type CustomerEndpointControl,
  /** The started endpoint: its URLs, its certificate, its in-process control and client, and `close()`. */
  type CustomerEndpointHandle,
  /** Where and how `start` listens: host, port, TLS and its versions, the first configuration, the control plane. */
  type CustomerEndpointOptions,
  /** Starts the customer endpoint on 127.0.0.1 (HTTP or HTTPS) with its control plane. */
  start,
} from './start-endpoint.ts';
/** Checks a whole configuration as the control plane takes it (JSON); throws a 400 error when it does not fit. */
export { parseWireConfig } from './wire-config.ts';
