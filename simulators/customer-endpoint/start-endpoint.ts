import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { SecureVersion, TLSSocket } from 'node:tls';
import type { VirtualClock } from '../shared/clock.ts';
import { type ControlPlane, controlPlane, startControlPlane } from '../shared/control/start-control-plane.ts';
import { closeServer, listen } from '../shared/http/listen.ts';
import { createSelfSignedTls } from '../shared/http/self-signed-tls.ts';
import { boundSlowClients, HTTP_SERVER_OPTIONS } from '../shared/http/slow-clients.ts';
import { EndpointCore } from './answer-request.ts';
import type { EndpointBehaviour, EndpointConfig } from './endpoint-behaviour.ts';
import type { EndpointControl } from './endpoint-control.ts';
import { endpointEffects } from './endpoint-effects.ts';
import { ENDPOINT_CONTROL_OPERATIONS } from './endpoint-operations.ts';

import { PlanWriter } from './plan-writer.ts';
import { MAX_RECORDED_BODY_BYTES, type RecordedRequest } from './recorded-request.ts';
import { RequestRecorder } from './request-recorder.ts';

/** Request bodies beyond this get 413: a configuration with a 1 MiB body in base64 still fits. */
const MAX_ENDPOINT_CONTROL_BODY_BYTES = 2 * 1024 * 1024;

export interface CustomerEndpointOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /**
   * `true`: HTTPS with a fresh self-signed certificate for `localhost` and `127.0.0.1` (needs
   * `openssl`); `{ hosts }`: the same for other names (a certificate whose names do not match the
   * address, RESOLVER-TLS-NO-HOSTNAME); or a PEM key and certificate.
   */
  tls?: boolean | { hosts: string[] } | { key: string; cert: string };
  /** TLS versions offered (default 1.2 to 1.3). */
  tlsVersions?: { min?: SecureVersion; max?: SecureVersion };
  config?: EndpointConfig;
  /** Bound on kept recordings (default 1000; the oldest drop first). */
  maxRecords?: number;
  /**
   * Also serve the HTTP control plane (schemas/customer-endpoint-control.openapi.yaml) on its own
   * listener, by default on 127.0.0.1 and any free port: the recordings and the configuration stay
   * out of reach of the PBX under test.
   */
  controlPlane?: boolean | { host?: string; port?: number };
  /**
   * The duration clock of a simulated PBX in this process (`durationClock()`, given to its
   * `start({ durationClock })`): answer delays then advance it instead of sleeping
   * (plan-writer.ts). Never for a PBX elsewhere, which measures real time.
   */
  sharedClock?: VirtualClock;
}

export interface CustomerEndpointControl {
  /** The configuration in effect (a copy). */
  config(): EndpointConfig;
  /** Replaces the whole configuration. */
  configure(config: EndpointConfig): void;
  setRoute(path: string, behaviour: EndpointBehaviour): void;
  setFallback(behaviour: EndpointBehaviour): void;
  /** Every request received so far, oldest first (copies). */
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** Back to the configuration of `start`, no recordings, no outstanding nonces. */
  reset(): void;
  /** Resolves once `count` requests are recorded; rejects after `timeoutMs` (default 5000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
}

export interface CustomerEndpointHandle {
  /** `base`: where a provider is pointed; `control`: the HTTP control plane, when started with one. */
  urls: { base: string; control?: string };
  /** The server certificate (PEM) when serving HTTPS, for a client that should trust it. */
  certificate: string | null;
  /** The endpoint's own API in this process: configurations and recordings with their bytes. */
  control: CustomerEndpointControl;
  /**
   * The control plane's operations in this process, derived from their declarations: the wire
   * forms, checks, statuses and `ControlError`s of `httpEndpointControl`, without a socket.
   */
  client: EndpointControl;
  close(): Promise<void>;
}

/**
 * Starts the recording customer endpoint (issue 5, section 3): an HTTP(S) server a provider —
 * of the simulated PBX or of a real one — is pointed at. It answers as configured (bodies,
 * statuses, delays, redirects, compression, Basic/Digest/Bearer challenges, hostile streams) and
 * records every request exactly: method, raw target, headers in order with their casing, body.
 * The answer logic is the socket-free `EndpointCore`, the recordings a `RequestRecorder`, the
 * writing of planned answers a `PlanWriter`; this wires them to a listener.
 */
export async function start(options: CustomerEndpointOptions = {}): Promise<CustomerEndpointHandle> {
  const initial = structuredClone(options.config ?? {});
  const core = new EndpointCore(structuredClone(initial));
  const recorder = new RequestRecorder(options.maxRecords ?? 1000);
  const writer = new PlanWriter(options.sharedClock);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    readRecordedBody(req, (body, truncated) => {
      const headers = rawHeaderPairs(req);
      const target = req.url ?? '/';
      const plan = core.answer({ method: req.method ?? 'GET', target, headers, body });
      const record = recordOf(req, {
        seq: recorder.nextSeq(),
        target,
        headers,
        body,
        truncated,
        auth: plan.auth,
      });
      recorder.add(record);
      writer.write(plan, res, record);
    });
    req.on('error', () => res.destroy());
  };
  const { server, certificate } = await createListener(options, handle);
  const sockets = trackSockets(server);
  const address = await listen(server, { port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const control = endpointControl(core, initial, recorder);
  const base = `${options.tls ? 'https' : 'http'}://${host}:${address.port}`;
  const closeListener = async () => {
    const closed = closeServer(server);
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  let controlServer: ControlPlane<typeof ENDPOINT_CONTROL_OPERATIONS> | undefined;
  const effects = endpointEffects({
    ...control,
    info: () => ({ base, control: controlServer?.url ?? '', certificate }),
  });
  const inProcess = controlPlane(ENDPOINT_CONTROL_OPERATIONS, effects);
  if (options.controlPlane) {
    const where = options.controlPlane === true ? {} : options.controlPlane;
    try {
      controlServer = await startControlPlane(ENDPOINT_CONTROL_OPERATIONS, effects, {
        host: where.host ?? '127.0.0.1',
        port: where.port ?? 0,
        maxBodyBytes: MAX_ENDPOINT_CONTROL_BODY_BYTES,
        requestTimeoutMs: 90_000,
      });
    } catch (error) {
      await closeListener();
      throw error;
    }
  }
  return {
    urls: { base, ...(controlServer ? { control: controlServer.url } : {}) },
    certificate,
    control,
    client: inProcess.client,
    async close() {
      writer.close();
      await controlServer?.close();
      recorder.cancelWaiters();
      await closeListener();
    },
  };
}

/** The control operations over the core's configuration and the recordings. */
function endpointControl(
  core: EndpointCore,
  initial: EndpointConfig,
  recorder: RequestRecorder,
): CustomerEndpointControl {
  return {
    config: () => structuredClone(core.config),
    configure(config) {
      core.config = structuredClone(config);
    },
    setRoute(path, behaviour) {
      core.config = { ...core.config, routes: { ...core.config.routes, [path]: behaviour } };
    },
    setFallback(behaviour) {
      core.config = { ...core.config, fallback: behaviour };
    },
    requests: () => recorder.list(),
    clearRequests: () => recorder.clear(),
    reset() {
      core.config = structuredClone(initial);
      core.digest.clear();
      recorder.clear();
    },
    waitForRequests: (count, timeoutMs = 5000) => recorder.waitFor(count, timeoutMs),
  };
}

/** Reads the body, keeping at most `MAX_RECORDED_BODY_BYTES` of it (the rest is read and dropped). */
function readRecordedBody(req: IncomingMessage, done: (body: Buffer, truncated: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  req.on('data', (chunk: Buffer) => {
    if (size + chunk.length > MAX_RECORDED_BODY_BYTES) {
      truncated = true;
      chunks.push(chunk.subarray(0, Math.max(0, MAX_RECORDED_BODY_BYTES - size)));
      size = MAX_RECORDED_BODY_BYTES;
    } else {
      chunks.push(chunk);
      size += chunk.length;
    }
  });
  req.on('end', () => done(Buffer.concat(chunks), truncated));
}

/** The request headers in order with their casing, as received. */
function rawHeaderPairs(req: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
  return headers;
}

function recordOf(
  req: IncomingMessage,
  seen: {
    seq: number;
    target: string;
    headers: [string, string][];
    body: Buffer;
    truncated: boolean;
    auth: RecordedRequest['auth'];
  },
): RecordedRequest {
  const q = seen.target.indexOf('?');
  return {
    seq: seen.seq,
    at: Date.now(),
    method: req.method ?? '',
    target: seen.target,
    path: q === -1 ? seen.target : seen.target.slice(0, q),
    query: q === -1 ? null : seen.target.slice(q + 1),
    httpVersion: req.httpVersion,
    headers: seen.headers,
    body: seen.body,
    bodyTruncated: seen.truncated,
    tlsProtocol: (req.socket as TLSSocket).getProtocol?.() ?? null,
    auth: seen.auth,
    status: null,
    responseContentEncoding: null,
  };
}

/** An HTTP or HTTPS server as the options ask (RESOLVER-TLS-NO-HOSTNAME: certificates for other names). */
async function createListener(
  options: CustomerEndpointOptions,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; certificate: string | null }> {
  let server: Server;
  let certificate: string | null = null;
  if (options.tls) {
    const pair =
      options.tls === true
        ? await createSelfSignedTls({ hosts: ['localhost', '127.0.0.1'] })
        : 'hosts' in options.tls
          ? await createSelfSignedTls({ hosts: options.tls.hosts })
          : options.tls;
    certificate = pair.cert;
    server = createHttpsServer(
      {
        ...HTTP_SERVER_OPTIONS,
        key: pair.key,
        cert: pair.cert,
        minVersion: options.tlsVersions?.min ?? 'TLSv1.2',
        maxVersion: options.tlsVersions?.max ?? 'TLSv1.3',
      },
      handle,
    );
  } else server = createHttpServer(HTTP_SERVER_OPTIONS, handle);
  boundSlowClients(server);
  server.on('tlsClientError', () => {});
  server.on('clientError', (_error, socket) => socket.destroy());
  return { server, certificate };
}

/** The live sockets of a server, so `close` can cut answers still under way. */
function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}
