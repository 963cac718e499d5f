import fc from 'fast-check';
import type { FuzzGenerator, FuzzTargetInfo, LivenessProbe } from '../types.ts';
import { hostPort, httpRequest, type WireRequest } from '../wire.ts';
import { baseFinding, expectHttp, mismatch, nastyText, pathSegment, preview, randomBytes } from './common.ts';

type Fleet = NonNullable<FuzzTargetInfo['fleet']>;

export interface FleetInput {
  method: string;
  path: string;
  authorization: string | null;
  headers: Array<[string, string]>;
  body: Buffer | null;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

function toRequest(f: Fleet, input: FleetInput): WireRequest {
  const { host, port } = hostPort(f.apiUrl);
  const headers = [...input.headers];
  if (input.authorization !== null) headers.push(['Authorization', input.authorization]);
  if (input.body !== null) headers.push(['Content-Type', 'application/json']);
  return { host, port, bytes: httpRequest(input.method, input.path, headers, input.body ?? undefined) };
}

/** Ids no fixture uses: a prefix real ids never have, or bytes that cannot be an id. */
const oddId = fc.oneof(
  pathSegment.map((s) => `zz-fuzz-${s}`),
  fc.constantFrom('%00', '%ZZ', '%', '..', '.', '%2F', '%C0%AF', '%FF%FE', 'site-hamburg%00', 'SITE-HAMBURG'),
);

/** The fleet REST generators (maintenance-and-fleet-api.md, interface B). */
export function fleetGenerators(f: Fleet): FuzzGenerator<FleetInput>[] {
  const good = basic(f.account.email, f.account.password);
  return [
    {
      face: 'fleet',
      id: 'fleet-bad-basic',
      title: 'fleet REST: missing, malformed or wrong Basic credentials are 401 on every path under /api/v1',
      clauses: ['FLEET-AUTH-BASIC', 'FLEET-ERR-401-NOT-SIGNED-IN', 'FLEET-ERR-401-WRONG-PASSWORD'],
      weight: 2,
      arbitrary: fc.record({
        method: fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE'),
        path: fc.oneof(
          fc.constantFrom('/api/v1/sites', '/api/v1', '/api/v1/', '/api/v1/sites/site-hamburg/history'),
          fc.tuple(oddId, oddId).map(([s, i]) => `/api/v1/sites/${s}/attention/${i}/acknowledge`),
        ),
        authorization: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          {
            weight: 6,
            arbitrary: fc.constantFrom(
              'Basic',
              'Basic ',
              'basic',
              'Basic ====',
              'Basic eDp5',
              'Basic Og==',
              'Bearer x',
              'Digest y',
              'Basic %%%',
            ),
          },
          { weight: 6, arbitrary: randomBytes(40).map((b) => `Basic ${b.toString('base64')}`) },
          { weight: 4, arbitrary: fc.stringMatching(/^[!-~]{1,60}$/).map((t) => `Basic ${t}`) },
          // Well-formed credentials cost the server a password hash each: fewer of them.
          {
            weight: 1,
            arbitrary: nastyText(20).map((p) => basic(f.account.email, `${f.account.password}${p}x`)),
          },
          {
            weight: 1,
            arbitrary: fc.tuple(pathSegment, nastyText(12)).map(([u, p]) => basic(`zz-${u}@fuzz.example`, p)),
          },
        ),
        headers: fc.constant([]),
        body: fc.option(randomBytes(64), { nil: null }),
      }),
      request: (input) => toRequest(f, input),
      check: (_, answer) => expectHttp(answer, 401),
    },
    {
      face: 'fleet',
      id: 'fleet-odd-ids',
      title: 'fleet REST: signed in, a site or item id that does not exist (odd bytes, encodings) is 404',
      clauses: ['FLEET-ERR-404-SITE-UNKNOWN', 'FLEET-ERR-404-ITEM-UNKNOWN'],
      weight: 3,
      arbitrary: fc.oneof(
        oddId.map((s) => ({
          method: 'GET',
          path: `/api/v1/sites/${s}/history`,
          authorization: good,
          headers: [],
          body: null,
        })),
        fc.record({
          method: fc.constant('POST'),
          path: fc.tuple(oddId, oddId).map(([s, i]) => `/api/v1/sites/${s}/attention/${i}/acknowledge`),
          authorization: fc.constant(good),
          headers: fc.constant([] as Array<[string, string]>),
          body: fc.option(
            fc.oneof(
              fc.json().map((t) => Buffer.from(t)),
              nastyText(40).map((t) => Buffer.from(JSON.stringify({ comment: t }))),
              randomBytes(64),
            ),
            { nil: null },
          ),
        }),
      ),
      request: (input) => toRequest(f, input),
      check: (_, answer) => expectHttp(answer, 404),
    },
    {
      face: 'fleet',
      id: 'fleet-if-none-match',
      title:
        'fleet REST: GET /api/v1/sites with an arbitrary If-None-Match is 200 with the list (304 only for a matching tag or *)',
      clauses: ['FLEET-SITES-NOT-MODIFIED'],
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.stringMatching(/^[!-~ ]{0,80}$/),
          fc.stringMatching(/^[0-9a-f]{1,64}$/).map((t) => `"${t}"`),
          fc.stringMatching(/^[0-9a-f]{1,64}$/).map((t) => `W/"${t}", "x"`),
          fc.constantFrom('""', 'W/""', '"', ',', ', ,', 'W/', '"\\""'),
        )
        .map((value) => ({
          method: 'GET',
          path: '/api/v1/sites',
          authorization: good,
          headers: [['If-None-Match', value]] as Array<[string, string]>,
          body: null,
        })),
      request: (input) => toRequest(f, input),
      check: (input, answer) => {
        const base = baseFinding(answer);
        if (base) return base;
        const http = answer.http;
        if (!http) return mismatch('no HTTP answer');
        const value = input.headers[0]?.[1] ?? '';
        if (http.status === 200) return null;
        // A 304 is right only for `*` or a tag the server itself handed out (opaque tags are quoted).
        if (http.status === 304 && (value.includes('*') || /"[^"]+"/.test(value))) return null;
        return mismatch(`If-None-Match ${JSON.stringify(value)}: HTTP ${http.status} ${preview(http.body)}`);
      },
    },
  ];
}

/** A JSON error object with the string code `code` (FLEET-ERROR-OBJECT). */
function errorObject(body: Buffer, code: string): string | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as { error?: unknown; message?: unknown };
    if (value.error !== code)
      return `error ${JSON.stringify(value.error)} instead of ${JSON.stringify(code)}`;
    return typeof value.message === 'string' ? null : 'no string message';
  } catch {
    return `not JSON: ${preview(body)}`;
  }
}

/** Generators that need the target's viewer, foreign site or an open item. */
export function fleetItemGenerators(f: Fleet): FuzzGenerator<FleetInput>[] {
  const good = basic(f.account.email, f.account.password);
  const generators: FuzzGenerator<FleetInput>[] = [];
  const foreign = f.foreignSite;
  if (foreign !== undefined) {
    generators.push({
      face: 'fleet',
      id: 'fleet-foreign-site',
      title:
        'fleet REST: a site of another partner access is 404 for its history and for acknowledging any item on it',
      clauses: ['FLEET-AUTH-FOREIGN-SITE-HISTORY-404', 'FLEET-ERR-404-SITE-FOREIGN'],
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('GET', 'HEAD').map((method) => ({
          method,
          path: `/api/v1/sites/${foreign}/history`,
          authorization: good,
          headers: [],
          body: null,
        })),
        fc
          .tuple(fc.oneof(pathSegment, fc.nat().map(String)), fc.option(randomBytes(80), { nil: null }))
          .map(([id, body]) => ({
            method: 'POST',
            path: `/api/v1/sites/${foreign}/attention/${id === '' ? '1' : id}/acknowledge`,
            authorization: good,
            headers: [],
            body,
          })),
      ),
      request: (input) => toRequest(f, input),
      check: (_, answer) => expectHttp(answer, 404),
    });
  }
  const item = f.item;
  if (item === undefined) return generators;
  const ackPath = `/api/v1/sites/${item.siteId}/attention/${item.id}/acknowledge`;
  const viewer = f.viewer;
  if (viewer !== undefined) {
    generators.push({
      face: 'fleet',
      id: 'fleet-viewer-ack',
      title:
        'fleet REST: a Viewer acknowledging a visible item is 403 with the error object, whatever the body',
      clauses: ['FLEET-AUTH-VIEWER-ACK-403', 'FLEET-ERROR-OBJECT'],
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.json().map((t) => Buffer.from(t)),
          nastyText(40).map((t) => Buffer.from(JSON.stringify({ comment: t }))),
          randomBytes(80),
        )
        .map((body) => ({
          method: 'POST',
          path: ackPath,
          authorization: basic(viewer.email, viewer.password),
          headers: [],
          body,
        })),
      request: (input) => toRequest(f, input),
      check: (_, answer) =>
        expectHttp(answer, 403) ??
        (answer.http ? toFinding(errorObject(answer.http.body, 'forbidden')) : null),
    });
  }
  generators.push({
    face: 'fleet',
    id: 'fleet-comment-too-long',
    title:
      'fleet REST: an acknowledgement comment of more than 1000 characters is 400 with the error object invalid_request',
    clauses: ['FLEET-ERR-400-COMMENT-TOO-LONG', 'FLEET-ERROR-OBJECT'],
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...'abcXYZ 019.,;-_äöüß€"\n\t<>&'), { minLength: 1001, maxLength: 3000 })
      .map((chars) => ({
        method: 'POST',
        path: ackPath,
        authorization: good,
        headers: [],
        body: Buffer.from(JSON.stringify({ comment: chars.join('') })),
      })),
    request: (input) => toRequest(f, input),
    check: (_, answer) =>
      expectHttp(answer, 400) ??
      (answer.http ? toFinding(errorObject(answer.http.body, 'invalid_request')) : null),
  });
  return generators;
}

function toFinding(problem: string | null) {
  return problem === null ? null : mismatch(problem);
}

export function fleetProbe(f: Fleet): LivenessProbe {
  const { host, port } = hostPort(f.apiUrl);
  return {
    face: 'fleet',
    request: () => ({
      host,
      port,
      bytes: httpRequest('GET', '/api/v1/sites', [
        ['Authorization', basic(f.account.email, f.account.password)],
      ]),
    }),
    ok: (answer) => answer.http?.status === 200,
  };
}
