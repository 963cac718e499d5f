import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { DigestVerifier, safeEqual } from './digest-server.ts';
import type { Compression, EndpointBehaviour, EndpointConfig, HostileMode } from './endpoint-behaviour.ts';

/** The request as the core sees it (socket-free). */
export interface EndpointRequest {
  method: string;
  /** Raw request-target. */
  target: string;
  /** Header lines with original casing. */
  headers: [string, string][];
  body: Buffer;
}

/** What the listener must do (bytes out, and how). */
export interface ResponsePlan {
  status: number;
  headers: [string, string][];
  body: Buffer;
  delayMs: number;
  /** `once`: send head and body; the rest are hostile streams the listener runs. */
  stream: 'once' | 'endless' | 'drip' | 'close-mid-body' | 'never';
  dripIntervalMs: number;
  auth: 'none' | 'ok' | 'challenged' | 'rejected';
}

const DEFAULT_CONTENT_TYPE = 'application/json; charset=utf-8';

let bomb: Buffer | undefined;

/** gzip of 32 MiB of zeros, made once (about 32 KiB). */
function compressionBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(32 * 1024 * 1024), { level: 9 });
  return bomb;
}

function compress(body: Buffer, compression: Compression): Buffer {
  switch (compression) {
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
    case 'deflate-raw':
      return deflateRawSync(body);
    case 'br':
      return brotliCompressSync(body);
    default:
      return body;
  }
}

function header(request: EndpointRequest, name: string): string | undefined {
  return request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Reads the number a lookup table is asked for: query parameter (GET) or JSON `query` (POST). */
function requestedNumber(request: EndpointRequest, param: string, plusAsSpace: boolean): string | null {
  if (request.method === 'POST') {
    try {
      const json = JSON.parse(request.body.toString('utf8')) as unknown;
      const query = (json as { query?: unknown } | null)?.query;
      return typeof query === 'string' ? query : null;
    } catch {
      return null;
    }
  }
  const q = request.target.indexOf('?');
  if (q === -1) return null;
  for (const pair of request.target.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (name !== param) continue;
    const raw = eq === -1 ? '' : pair.slice(eq + 1);
    try {
      return decodeURIComponent(plusAsSpace ? raw.replace(/\+/g, ' ') : raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * The socket-free core of the recording customer endpoint: picks the behaviour for the path,
 * checks authentication (Basic, Digest MD5/SHA-256 with qop=auth, Bearer), and returns what to
 * send. Hostile modes come back as stream kinds for the listener.
 */
export class EndpointCore {
  readonly digest = new DigestVerifier();

  constructor(public config: EndpointConfig) {}

  behaviourFor(target: string): EndpointBehaviour {
    const path = target.split('?')[0] ?? target;
    return this.config.routes?.[path] ?? this.config.fallback ?? {};
  }

  answer(request: EndpointRequest): ResponsePlan {
    const behaviour = this.behaviourFor(request.target);
    const plan: ResponsePlan = {
      status: behaviour.status ?? 200,
      headers: [],
      body: Buffer.alloc(0),
      delayMs: behaviour.delayMs ?? 0,
      stream: 'once',
      dripIntervalMs: behaviour.dripIntervalMs ?? 20,
      auth: 'none',
    };
    const auth = behaviour.auth;
    if (auth) {
      const given = header(request, 'authorization') ?? '';
      let ok = false;
      if (auth.scheme === 'Basic') {
        const expected = `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
        ok = safeEqual(given, expected);
        if (!ok)
          plan.headers.push([
            'WWW-Authenticate',
            `Basic realm="${auth.realm ?? 'customer'}", charset="UTF-8"`,
          ]);
      } else if (auth.scheme === 'Bearer') {
        ok = safeEqual(given, `Bearer ${auth.token}`);
        if (!ok) plan.headers.push(['WWW-Authenticate', 'Bearer realm="customer"']);
      } else {
        const settings = {
          username: auth.username,
          password: auth.password,
          realm: auth.realm ?? 'customer@example.org',
          algorithms: auth.algorithms ?? ['MD5'],
          qop: auth.qop ?? 'auth',
          userhash: auth.userhash ?? false,
        } as const;
        ok =
          given !== '' &&
          this.digest.verify(
            { ...settings, algorithms: [...settings.algorithms] },
            given,
            request.method,
            request.target,
          );
        if (!ok)
          for (const c of this.digest.challenge({ ...settings, algorithms: [...settings.algorithms] }))
            plan.headers.push(['WWW-Authenticate', c]);
      }
      if (!ok) {
        plan.auth = given === '' ? 'challenged' : 'rejected';
        plan.status = 401;
        plan.headers.push(['Content-Type', 'text/plain; charset=utf-8']);
        plan.body = Buffer.from('Unauthorized');
        plan.delayMs = 0;
        return plan;
      }
      plan.auth = 'ok';
    }
    if (behaviour.hostile) return this.hostile(behaviour.hostile, request, plan);
    if (behaviour.redirect) {
      plan.status = behaviour.redirect.status ?? 302;
      plan.headers.push(['Location', behaviour.redirect.location]);
      return plan;
    }
    let body: Buffer;
    if (behaviour.lookup) {
      const table = behaviour.lookup;
      const number = requestedNumber(request, table.param ?? 'tel', table.plusAsSpace ?? true);
      const record = number === null ? undefined : table.records[number];
      if (record === undefined) {
        plan.status = table.missing?.status ?? plan.status;
        body = Buffer.from(table.missing?.body ?? '{}', 'utf8');
      } else body = Buffer.from(record, 'utf8');
    } else if (behaviour.body instanceof Uint8Array) body = Buffer.from(behaviour.body);
    else body = Buffer.from(behaviour.body ?? '{}', 'utf8');
    const contentType = behaviour.contentType === undefined ? DEFAULT_CONTENT_TYPE : behaviour.contentType;
    if (contentType !== null) plan.headers.push(['Content-Type', contentType]);
    const compression = behaviour.compression ?? 'none';
    if (compression !== 'none') {
      body = compress(body, compression);
      plan.headers.push(['Content-Encoding', compression === 'deflate-raw' ? 'deflate' : compression]);
    }
    plan.headers.push(...(behaviour.headers ?? []));
    plan.body = body;
    return plan;
  }

  private hostile(mode: HostileMode, request: EndpointRequest, plan: ResponsePlan): ResponsePlan {
    switch (mode) {
      case 'endless-body':
        return {
          ...plan,
          status: 200,
          headers: [['Content-Type', 'text/plain; charset=utf-8']],
          stream: 'endless',
        };
      case 'slow-drip':
        return {
          ...plan,
          status: 200,
          headers: [['Content-Type', 'text/plain; charset=utf-8']],
          stream: 'drip',
        };
      case 'compression-bomb':
        return {
          ...plan,
          status: 200,
          headers: [
            ['Content-Type', 'text/plain; charset=utf-8'],
            ['Content-Encoding', 'gzip'],
          ],
          body: compressionBomb(),
        };
      case 'huge-header':
        return {
          ...plan,
          status: 200,
          headers: [
            ['Content-Type', 'text/plain; charset=utf-8'],
            ['X-Filler', 'a'.repeat(1024 * 1024)],
          ],
          body: Buffer.from('{"name":"Huge"}'),
        };
      case 'close-mid-body':
        return {
          ...plan,
          status: 200,
          headers: [['Content-Type', 'application/json; charset=utf-8']],
          body: Buffer.from(`{"name":"Cut Off","padding":"${'x'.repeat(2000)}"}`),
          stream: 'close-mid-body',
        };
      case 'redirect-loop':
        return { ...plan, status: 302, headers: [['Location', request.target]] };
      case 'redirect-chain': {
        const [path, query = ''] = request.target.split('?');
        const hop = Number(/(?:^|&)hop=(\d+)/.exec(query)?.[1] ?? '0') + 1;
        const rest = query.replace(/(^|&)hop=\d+/, '').replace(/^&/, '');
        return {
          ...plan,
          status: 302,
          headers: [['Location', `${path}?${rest ? `${rest}&` : ''}hop=${hop}`]],
        };
      }
      case 'never-answer':
        return { ...plan, stream: 'never' };
    }
  }
}
