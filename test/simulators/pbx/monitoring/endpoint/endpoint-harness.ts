import { connect, type Socket } from 'node:net';
import {
  MonitoringEndpoint,
  type MonitoringEndpointOptions,
} from '../../../../../simulators/pbx/monitoring/endpoint/monitoring-endpoint.ts';
import { SnapshotCache } from '../../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../../simulators/pbx/state/store.ts';
import type { PbxState } from '../../../../../simulators/pbx/state/types.ts';
import { VirtualClock } from '../../../../../simulators/shared/clock.ts';
import { eventually as sharedEventually } from '../../../../../steps/support/eventually.ts';

export interface Harness {
  store: PbxStore;
  cache: SnapshotCache;
  endpoint: MonitoringEndpoint;
  /** The port the endpoint listens on (after `apply()`); throws when it does not listen. */
  port(): number;
  close(): Promise<void>;
}

/**
 * A data endpoint on 127.0.0.1, ephemeral port, built directly from a store and a cache, with
 * deterministic Linux sections. `adjust` changes the state before the module start.
 */
export async function startEndpoint(
  adjust: (state: PbxState) => void = () => {},
  options: MonitoringEndpointOptions = {},
): Promise<Harness> {
  const clock = new VirtualClock({ start: Date.UTC(2026, 9, 1, 8), mode: 'frozen' });
  const state = defaultState(clock.now());
  state.os.linuxSectionsSource = 'synthetic';
  state.monitoring.host = '127.0.0.1';
  state.monitoring.port = 0;
  adjust(state);
  const store = new PbxStore(clock, state);
  const cache = new SnapshotCache(store);
  const endpoint = new MonitoringEndpoint(store, cache, options);
  try {
    await endpoint.apply();
  } catch (error) {
    await endpoint.close();
    throw error;
  }
  return {
    store,
    cache,
    endpoint,
    port() {
      const { port } = endpoint.status();
      if (port === null) throw new Error(`endpoint not listening: ${JSON.stringify(endpoint.status())}`);
      return port;
    },
    async close() {
      await endpoint.close();
      clock.dispose();
    },
  };
}

export interface Exchange {
  /** Every byte the server sent until it closed. */
  bytes: Buffer;
  /** How the server ended the connection. */
  ending: 'end' | 'reset';
}

export interface ExchangeOptions {
  /** Bytes to send after connecting; nothing when absent. */
  send?: string | Buffer;
  /** End the client's sending side right after `send`. */
  endWrite?: boolean;
  /** Local address to connect from, to act as another host (127.x.y.z). */
  localAddress?: string;
  /** Safety net so a test never hangs; the exchange fails when it passes. */
  timeoutMs?: number;
}

/** Connects like a monitoring fetcher: optionally sends, then reads until the server closes. */
export function exchange(port: number, options: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port, localAddress: options.localAddress }, () => {
      if (options.send !== undefined) socket.write(options.send);
      if (options.endWrite) socket.end();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no close within ${options.timeoutMs ?? 8000} ms; got ${Buffer.concat(chunks).length} bytes`,
        ),
      );
    }, options.timeoutMs ?? 8000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), ending: 'end' });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        resolve({ bytes: Buffer.concat(chunks), ending: 'reset' });
      else reject(error);
    });
  });
}

/** Resolves with the connect error code (e.g. `ECONNREFUSED`), or `connected`. */
export function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Opens a connection and leaves it open; the caller destroys it. */
export function openSocket(port: number, send?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      if (send !== undefined) socket.write(send);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export interface HttpAnswer {
  statusLine: string;
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Splits an HTTP/1.1 answer into status, lower-cased headers and body bytes. */
export function parseHttp(bytes: Buffer): HttpAnswer {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`not an HTTP answer: ${JSON.stringify(bytes.toString('latin1', 0, 80))}`);
  const [statusLine = '', ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { statusLine, status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(split + 4) };
}

/** A simple HTTP request head. */
export function request(method: string, target: string, extra = ''): string {
  return `${method} ${target} HTTP/1.1\r\nHost: pbx\r\n${extra}\r\n`;
}

/** Polls until `check` holds (steps/support/eventually.ts); a bounded wait, not a timing assertion. */
export function eventually(check: () => boolean, what: string): Promise<void> {
  return sharedEventually(check, what, { intervalMs: 10 });
}
