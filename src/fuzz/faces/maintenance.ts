import fc from 'fast-check';
import type { FuzzGenerator, FuzzTargetInfo, LivenessProbe } from '../types.ts';
import { hostPort, httpRequest, type WireRequest } from '../wire.ts';
import { expectHttp, mismatch, nastyText, pathSegment, randomBytes } from './common.ts';

type Maintenance = NonNullable<FuzzTargetInfo['maintenance']>;

/** The exact answers of maintenance-and-fleet-api.md, "Errors" (interface A). */
export const MAINTENANCE_ANSWERS = {
  unauthorized: '{"status":"error","message":"invalid or missing API token"}',
  unknownEndpoint: '{"status":"error","message":"unknown endpoint"}',
  unknownCommand: '{"status":"error","message":"unknown command"}',
  tooLarge: '{"ok":false,"error":"body-too-large"}',
} as const;

/** 1 MiB: the largest body interface A accepts (MAINT-POST-BODY-UP-TO-1MIB). */
const MAX_BODY = 1024 * 1024;

export interface MaintenanceInput {
  method: string;
  suffix: string;
  authorization: string | null;
  body: Buffer | null;
  /** Send the body chunked, in pieces of these sizes (odd chunking). */
  chunks: number[] | null;
}

/**
 * Methods an HTTP server parses (RFC 9110 and WebDAV); a token it does not know as a method is an
 * HTTP-level 400 before any application sees it, an answer the spec does not name.
 */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'];

const jsonish = fc.oneof(
  fc.json().map((t) => Buffer.from(t, 'utf8')),
  fc
    .constantFrom('{', '{"a":', '[]', 'null', '{"__proto__":{"x":1}}', '\u0000', '{"executeAt":"x"}')
    .map((t) => Buffer.from(t)),
  randomBytes(200),
);

function chunked(body: Buffer, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= body.length) break;
    const piece = body.subarray(at, at + Math.max(1, size));
    at += piece.length;
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  if (at < body.length) {
    const rest = body.subarray(at);
    parts.push(Buffer.from(`${rest.length.toString(16)}\r\n`), rest, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

function toRequest(m: Maintenance, input: MaintenanceInput): WireRequest {
  const { host, port } = hostPort(m.webUrl);
  const headers: Array<[string, string]> = [['Content-Type', 'application/json']];
  if (input.authorization !== null) headers.push(['Authorization', input.authorization]);
  if (input.body !== null && input.chunks !== null) {
    headers.push(['Transfer-Encoding', 'chunked']);
    return {
      host,
      port,
      bytes: httpRequest(
        input.method,
        `${m.basePath}${input.suffix}`,
        headers,
        chunked(input.body, input.chunks),
      ),
    };
  }
  return {
    host,
    port,
    bytes: httpRequest(input.method, `${m.basePath}${input.suffix}`, headers, input.body ?? undefined),
  };
}

const suffix = fc.oneof(
  fc.constant(''),
  fc.constant('/'),
  fc.constantFrom(
    '/system-functions',
    '/system-functions/',
    '/system-functions/RestartPbx',
    '//system-functions',
  ),
  fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
  fc.tuple(pathSegment, fc.constantFrom('?', '?x=1&', '#')).map(([s, q]) => `/system-functions${q}${s}`),
);

const badToken = fc.oneof(
  fc.constant(null),
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'bearer',
    'Basic YWRtaW46YWRtaW4=',
    'Digest x',
    'Bearer a b',
    'Bearer\t',
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((t) => `Bearer ${t}`),
  // Any bytes a header value may carry (HTAB, SP, VCHAR, obs-text); others are an HTTP-level 400.
  nastyText(60)
    .filter((t) => /^[\t\x20-\x7e\x80-\xff]*$/.test(t))
    .map((t) => `Bearer ${t}`),
  fc.stringMatching(/^[!-~]{1,60}$/),
);

/** The maintenance API's generators (maintenance-and-fleet-api.md, interface A). */
export function maintenanceGenerators(
  m: Maintenance,
  commands: readonly string[],
): FuzzGenerator<MaintenanceInput>[] {
  const generators: FuzzGenerator<MaintenanceInput>[] = [
    {
      face: 'maintenance',
      id: 'maint-bad-token',
      title:
        'maintenance API: a missing, malformed or unknown token is 401 with the spec body, on every path and method, whatever the body and its chunking',
      clauses: ['MAINT-AUTH-401-MISSING', 'MAINT-AUTH-401-INVALID', 'MAINT-AUTH-401-OTHER-SCHEME'],
      weight: 4,
      arbitrary: fc.record({
        method: fc.constantFrom(...METHODS),
        suffix,
        authorization: badToken,
        body: fc.option(jsonish, { nil: null }),
        chunks: fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 6 }), { nil: null }),
      }),
      request: (input) => toRequest(m, input),
      check: (input, answer) => {
        const found = expectHttp(answer, 401, MAINTENANCE_ANSWERS.unauthorized);
        if (found) return found;
        return /^Bearer/i.test(answer.http?.headers.get('www-authenticate') ?? '')
          ? null
          : mismatch(`401 without WWW-Authenticate: Bearer (method ${input.method})`);
      },
    },
  ];
  const token = m.token;
  if (token === undefined) return generators;
  const auth = `Bearer ${token}`;
  const knownCommand = commands[0] ?? 'RestartPbx';
  generators.push(
    {
      face: 'maintenance',
      id: 'maint-unknown-endpoint',
      title:
        'maintenance API: with a valid token, an unknown path or a known path with another method is 404 "unknown endpoint"',
      clauses: ['MAINT-ERR-404-UNKNOWN-PATH', 'MAINT-ERR-404-WRONG-METHOD'],
      weight: 3,
      arbitrary: fc
        .record({
          method: fc.constantFrom(...METHODS, 'GET', 'POST'),
          suffix,
          authorization: fc.constant(auth),
          body: fc.option(jsonish, { nil: null }),
          chunks: fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 6 }), { nil: null }),
        })
        .filter((input) => {
          const path = input.suffix.split('?')[0] ?? '';
          if (input.method === 'GET' && path === '/system-functions') return false;
          if (input.method === 'POST' && /^\/system-functions\/[^/]+$/.test(path)) return false;
          return true;
        }),
      request: (input) => toRequest(m, input),
      check: (_, answer) => expectHttp(answer, 404, MAINTENANCE_ANSWERS.unknownEndpoint),
    },
    {
      face: 'maintenance',
      id: 'maint-unknown-command',
      title:
        'maintenance API: with a valid token, POST of a command name not in the list is 404 "unknown command"',
      clauses: ['MAINT-ERR-404-UNKNOWN-COMMAND'],
      weight: 2,
      arbitrary: fc.record({
        method: fc.constant('POST'),
        suffix: pathSegment
          .filter((name) => name !== '' && !commands.includes(name))
          .map((name) => `/system-functions/${name}`),
        authorization: fc.constant(auth),
        body: fc.option(jsonish, { nil: null }),
        chunks: fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 6 }), { nil: null }),
      }),
      request: (input) => toRequest(m, input),
      check: (_, answer) => expectHttp(answer, 404, MAINTENANCE_ANSWERS.unknownCommand),
    },
    {
      face: 'maintenance',
      id: 'maint-too-large',
      title:
        'maintenance API: with a valid token, a command body above 1 MiB (declared or chunked) is 413 with the spec body and the command does not run',
      clauses: ['MAINT-ERR-413-BODY-TOO-LARGE'],
      weight: 1,
      arbitrary: fc.record({
        method: fc.constant('POST'),
        suffix: fc.constant(`/system-functions/${knownCommand}`),
        authorization: fc.constant(auth),
        body: fc.integer({ min: 1, max: 64 * 1024 }).map((extra) => Buffer.alloc(MAX_BODY + extra, 0x20)),
        chunks: fc.option(fc.constant([256 * 1024, 256 * 1024, 256 * 1024, 256 * 1024]), { nil: null }),
      }),
      request: (input) => toRequest(m, input),
      check: (_, answer) => expectHttp(answer, 413, MAINTENANCE_ANSWERS.tooLarge),
    },
  );
  return generators;
}

export function maintenanceProbe(m: Maintenance): LivenessProbe {
  const { host, port } = hostPort(m.webUrl);
  const headers: Array<[string, string]> =
    m.token === undefined ? [] : [['Authorization', `Bearer ${m.token}`]];
  return {
    face: 'maintenance',
    request: () => ({ host, port, bytes: httpRequest('GET', `${m.basePath}/system-functions`, headers) }),
    ok: (answer) => answer.http?.status === (m.token === undefined ? 401 : 200),
  };
}
