import type { Server } from 'node:http';

/** A request head must be complete this long after the request began; then `408`. */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often node checks its head and request timeouts. Node's default is 30 s, so a head due
 * after 10 s was answered `408` only after 10 to 40 s (20-21 s were measured, while the docs said
 * 10 s; issue 20, item 17). Checking every second answers within 10 to 11 s.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Options every HTTP face passes to `createServer` (the check interval can only be set there). */
export const HTTP_SERVER_OPTIONS = Object.freeze({ connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS });

/**
 * The slow-client bounds every HTTP face of the simulators shares (docs/simulator.md, "The PBX web
 * server"): the head within `HEADERS_TIMEOUT_MS`, the whole request within `requestTimeoutMs`,
 * idle keep-alive connections closed after 5 s.
 */
export function boundSlowClients(server: Server, requestTimeoutMs = 30_000): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = 5_000;
}
