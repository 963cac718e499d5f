import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import xmlrpc from 'xmlrpc';
import { SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { startWebServer } from '../../../../simulators/pbx/web/web-server.ts';
import {
  createXmlRpcHandler,
  type XmlRpcHandlerOptions,
} from '../../../../simulators/pbx/xmlrpc/xmlrpc-handler.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';

/** What a call through the `xmlrpc` package's client came back with. */
export type CallOutcome =
  | { kind: 'result'; value: unknown }
  | { kind: 'fault'; faultCode: number; faultString: string }
  | { kind: 'error'; message: string };

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface XmlRpcTestServer {
  host: string;
  port: number;
  store: PbxStore;
  cache: SnapshotCache;
  /** Calls a method through the `xmlrpc` client; `query` is appended to `/xml-rpc` as is. */
  call(method: string, params?: unknown[], query?: string): Promise<CallOutcome>;
  close(): Promise<void>;
}

/** A PBX web server on 127.0.0.1:0 serving only the XML-RPC handler, over the default state. */
export async function startXmlRpcTestServer(options: XmlRpcHandlerOptions = {}): Promise<XmlRpcTestServer> {
  const clock = new VirtualClock({ start: Date.parse('2026-10-01T08:00:00Z') });
  const store = new PbxStore(clock, defaultState(clock.now()));
  store.update((s) => {
    s.os.linuxSectionsSource = 'synthetic';
  });
  const cache = new SnapshotCache(store);
  const host = '127.0.0.1';
  const { server } = await startWebServer({
    host,
    port: 0,
    routes: [{ prefix: '/xml-rpc', handle: createXmlRpcHandler(store, cache, options) }],
  });
  const { port } = server.address() as AddressInfo;
  return {
    host,
    port,
    store,
    cache,
    call: (method, params = [{}], query = '') =>
      callXmlRpc({ host, port, path: `/xml-rpc${query}` }, method, params),
    async close() {
      await closeServer(server);
      clock.dispose();
    },
  };
}

export function callXmlRpc(
  target: { host: string; port: number; path: string },
  method: string,
  params: unknown[],
): Promise<CallOutcome> {
  // Only {host, port, path} keeps the query string in the xmlrpc client.
  const client = xmlrpc.createClient({ host: target.host, port: target.port, path: target.path });
  return new Promise((resolve) => {
    client.methodCall(method, params, (error, value) => {
      if (!error) {
        resolve({ kind: 'result', value });
        return;
      }
      const e = error as { faultCode?: number; faultString?: string; message?: string };
      if (typeof e.faultCode === 'number') {
        resolve({ kind: 'fault', faultCode: e.faultCode, faultString: e.faultString ?? '' });
      } else {
        resolve({ kind: 'error', message: e.message ?? String(error) });
      }
    });
  });
}

export interface RawPostOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  /** The whole body at once. */
  body?: string | Buffer;
  /** Or: a body streamed as `count` copies of `chunk`, honouring back-pressure. */
  stream?: { chunk: Buffer; count: number };
  /** Or: the body in pieces with a real-time pause between them (slow client). */
  trickle?: { pieces: string[]; pauseMs: number };
}

/**
 * One request with node:http, for what the xmlrpc client cannot send (other methods, content
 * types, raw bodies, huge or slow bodies). Resolves with the response once it has ended; an error
 * on the request after the response arrived (the server closing mid-upload) is ignored.
 */
export function rawRequest(
  server: { host: string; port: number },
  options: RawPostOptions,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let responded = false;
    const timers = new Set<NodeJS.Timeout>();
    const req = request(
      {
        host: server.host,
        port: server.port,
        method: options.method ?? 'POST',
        path: options.path ?? '/xml-rpc',
        headers: { 'content-type': 'text/xml', ...options.headers },
        agent: false,
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const t of timers) clearTimeout(t);
          req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', (error) => {
      for (const t of timers) clearTimeout(t);
      if (!responded) reject(error);
    });
    if (options.stream) {
      const { chunk, count } = options.stream;
      let sent = 0;
      const pump = () => {
        while (sent < count && !responded && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!req.destroyed) req.end();
      };
      pump();
    } else if (options.trickle) {
      const { pieces, pauseMs } = options.trickle;
      const next = (i: number) => {
        if (req.destroyed || responded) return;
        if (i >= pieces.length) {
          req.end();
          return;
        }
        req.write(pieces[i]);
        const t = setTimeout(() => {
          timers.delete(t);
          next(i + 1);
        }, pauseMs);
        timers.add(t);
      };
      next(0);
    } else {
      req.end(options.body ?? '');
    }
  });
}

/** A minimal `methodCall` document. */
export function methodCallXml(
  method: string,
  paramsXml = '<param><value><struct></struct></value></param>',
): string {
  return `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${paramsXml}</params></methodCall>`;
}
