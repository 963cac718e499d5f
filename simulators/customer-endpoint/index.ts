import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { SecureVersion, TLSSocket } from 'node:tls';
import { createMaintenanceTls } from '../pbx/maintenance/maintenance-tls.ts';
import { EndpointCore, type ResponsePlan } from './answer-request.ts';
import type { EndpointBehaviour, EndpointConfig } from './endpoint-behaviour.ts';
import { endpointControlRoutes } from './endpoint-control-routes.ts';
import { type EndpointControlServer, startEndpointControlServer } from './endpoint-control-server.ts';
import { MAX_RECORDED_BODY_BYTES, type RecordedRequest } from './recorded-request.ts';

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
  control: CustomerEndpointControl;
  close(): Promise<void>;
}

const ENDLESS_CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Starts the recording customer endpoint (issue 5, section 3): an HTTP(S) server a provider —
 * of the simulated PBX or of a real one — is pointed at. It answers as configured (bodies,
 * statuses, delays, redirects, compression, Basic/Digest/Bearer challenges, hostile streams) and
 * records every request exactly: method, raw target, headers in order with their casing, body.
 * The answer logic is the socket-free `EndpointCore`; this is the thin listener around it.
 */
export async function start(options: CustomerEndpointOptions = {}): Promise<CustomerEndpointHandle> {
  const initial = structuredClone(options.config ?? {});
  const core = new EndpointCore(structuredClone(initial));
  const records: RecordedRequest[] = [];
  const maxRecords = options.maxRecords ?? 1000;
  let seq = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<{ wake: () => void; cancel: () => void }>();
  let closing = false;

  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const run = (plan: ResponsePlan, res: ServerResponse, record: RecordedRequest) => {
    if (closing || res.destroyed) return;
    if (plan.stream === 'never') return;
    record.status = plan.status;
    const codings = plan.headers.filter(([name]) => name.toLowerCase() === 'content-encoding');
    record.responseContentEncoding = codings.length ? codings.map(([, value]) => value).join(', ') : null;
    for (const [name, value] of plan.headers) res.appendHeader(name, value);
    if (plan.stream === 'once') {
      res.setHeader('Content-Length', plan.body.length);
      res.writeHead(plan.status);
      res.end(plan.body);
      return;
    }
    if (plan.stream === 'close-mid-body') {
      res.setHeader('Content-Length', plan.body.length);
      res.writeHead(plan.status);
      res.write(plan.body.subarray(0, Math.floor(plan.body.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.writeHead(plan.status);
    if (plan.stream === 'endless') {
      const pump = () => {
        while (!closing && !res.destroyed && res.write(ENDLESS_CHUNK)) {
          /* keep writing until the socket pushes back */
        }
        if (!closing && !res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    const drip = () => {
      if (closing || res.destroyed) return;
      res.write('x');
      later(drip, plan.dripIntervalMs);
    };
    drip();
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
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
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
      const body = Buffer.concat(chunks);
      const plan = core.answer({ method: req.method ?? 'GET', target, headers, body });
      const record: RecordedRequest = {
        seq: ++seq,
        at: Date.now(),
        method: req.method ?? '',
        target,
        path: q === -1 ? target : target.slice(0, q),
        query: q === -1 ? null : target.slice(q + 1),
        httpVersion: req.httpVersion,
        headers,
        body,
        bodyTruncated: truncated,
        tlsProtocol: (req.socket as TLSSocket).getProtocol?.() ?? null,
        auth: plan.auth,
        status: null,
        responseContentEncoding: null,
      };
      records.push(record);
      if (records.length > maxRecords) records.splice(0, records.length - maxRecords);
      for (const waiter of [...waiters]) waiter.wake();
      if (plan.delayMs > 0) later(() => run(plan, res, record), plan.delayMs);
      else run(plan, res, record);
    });
  };

  let certificate: string | null = null;
  let server: Server;
  if (options.tls) {
    const pair =
      options.tls === true
        ? await createMaintenanceTls({ hosts: ['localhost', '127.0.0.1'] })
        : 'hosts' in options.tls
          ? await createMaintenanceTls({ hosts: options.tls.hosts })
          : options.tls;
    certificate = pair.cert;
    server = createHttpsServer(
      {
        key: pair.key,
        cert: pair.cert,
        minVersion: options.tlsVersions?.min ?? 'TLSv1.2',
        maxVersion: options.tlsVersions?.max ?? 'TLSv1.3',
      },
      handle,
    );
  } else server = createHttpServer(handle);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => {});
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const control: CustomerEndpointControl = {
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
    requests: () =>
      records.map((r) => ({ ...r, headers: r.headers.map(([n, v]) => [n, v] as [string, string]) })),
    clearRequests() {
      records.length = 0;
    },
    reset() {
      core.config = structuredClone(initial);
      core.digest.clear();
      records.length = 0;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (records.length < count) return false;
          cleanup();
          resolve(control.requests());
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${count} requests within ${timeoutMs} ms, got ${records.length}`));
        }, timeoutMs);
        const waiter = {
          wake: () => void check(),
          cancel: () => {
            cleanup();
            reject(new Error('the customer endpoint closed'));
          },
        };
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        waiters.add(waiter);
        check();
      });
    },
  };
  const base = `${options.tls ? 'https' : 'http'}://${host}:${address.port}`;
  let controlServer: EndpointControlServer | undefined;
  if (options.controlPlane) {
    const where = options.controlPlane === true ? {} : options.controlPlane;
    try {
      controlServer = await startEndpointControlServer(
        endpointControlRoutes({
          ...control,
          info: () => ({ base, control: controlServer?.url ?? '', certificate }),
        }),
        { host: where.host ?? '127.0.0.1', port: where.port ?? 0 },
      );
    } catch (error) {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw error;
    }
  }
  return {
    urls: { base, ...(controlServer ? { control: controlServer.url } : {}) },
    certificate,
    control,
    async close() {
      closing = true;
      await controlServer?.close();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const waiter of [...waiters]) waiter.cancel();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
