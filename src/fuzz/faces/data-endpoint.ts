import fc from 'fast-check';
import type { FuzzGenerator, FuzzTargetInfo, LivenessProbe } from '../types.ts';
import type { WireAnswer } from '../wire.ts';
import { baseFinding, mismatch, nastyText, randomBytes } from './common.ts';

type Data = NonNullable<FuzzTargetInfo['data']>;

/** The requests a monitoring fetcher could send, bent out of shape. */
const requestish = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'get', 'G ET', ''),
    target: fc.oneof(
      fc.constantFrom(
        '/',
        '/checkmk',
        '/json',
        '/xml',
        '/?format=json',
        '/?format=xml',
        '*',
        'http://x/json',
      ),
      nastyText(40).map((t) => `/${t}`),
    ),
    version: fc.constantFrom(' HTTP/1.1', ' HTTP/1.0', ' HTTP/2.0', ' HTTP/1.1 extra', '', ' http/1.1'),
    headers: fc.array(fc.tuple(nastyText(20), nastyText(40)), { maxLength: 4 }),
    ending: fc.constantFrom('\r\n\r\n', '\n\n', '\r\n', '', '\r\n\r\nbody'),
  })
  .map(({ method, target, version, headers, ending }) =>
    Buffer.from(
      `${method} ${target}${version}${headers.map(([n, v]) => `\r\n${n}: ${v}`).join('')}${ending}`,
      'utf8',
    ),
  );

/** A listed client got an answer: HTTP with consistent headers, or raw text; never nothing. */
function checkListed(request: Buffer, answer: WireAnswer) {
  const base = baseFinding(answer);
  if (base) return base;
  if (answer.bytes.length === 0) return mismatch('a listed client got a close without a byte');
  const http = answer.http;
  if (!http) return null;
  const length = http.headers.get('content-length');
  // A HEAD answer announces the length of the body it leaves out.
  const head = request.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (length !== undefined && !head && Number(length) !== http.body.length && http.status !== 304)
    return mismatch(`Content-Length ${length} but ${http.body.length} body bytes`);
  if (http.headers.get('connection')?.toLowerCase() !== 'close')
    return mismatch(`an HTTP answer without Connection: close (${http.headers.get('connection') ?? 'none'})`);
  return null;
}

/** The data endpoint's generators (monitoring-endpoint-and-xmlrpc.md, "Data endpoint"). */
export function dataEndpointGenerators(data: Data): FuzzGenerator<Buffer>[] {
  const listed = { host: data.host, port: data.port, localAddress: data.listedClient, endWrite: true };
  const generators: FuzzGenerator<Buffer>[] = [
    {
      face: 'data',
      id: 'data-garbage',
      title:
        'data endpoint: garbage bytes and bent request lines from a listed client get an answer (HTTP with Content-Length and Connection: close, or raw), never a 5xx',
      clauses: ['MON-RAW-MODE', 'MON-HTTP-CONTENT-LENGTH', 'MON-HTTP-HEADERS'],
      weight: 5,
      arbitrary: fc.oneof(randomBytes(512), requestish),
      request: (bytes) => ({ ...listed, bytes }),
      check: (bytes, answer) => checkListed(bytes, answer),
    },
    {
      face: 'data',
      id: 'data-long-line',
      title:
        'data endpoint: oversized request lines and heads get an answer or a close, never a 5xx or a hang',
      clauses: ['MON-HTTP-HEADERS'],
      weight: 2,
      arbitrary: fc
        .record({
          length: fc.integer({ min: 1, max: 20_000 }),
          fill: fc.constantFrom('a', '%', '/', ' ', '\u00e4'),
          complete: fc.boolean(),
        })
        .map(({ length, fill, complete }) =>
          Buffer.from(`GET /${fill.repeat(length)}${complete ? ' HTTP/1.1\r\n\r\n' : ''}`, 'utf8'),
        ),
      request: (bytes) => ({ ...listed, bytes }),
      check: (bytes, answer) => checkListed(bytes, answer),
    },
  ];
  if (data.unlistedClient !== undefined) {
    const unlisted = data.unlistedClient;
    generators.push({
      face: 'data',
      id: 'data-unlisted',
      title:
        'data endpoint: a client that matches no monitoring-hosts entry is closed without a byte, whatever it sends',
      clauses: ['MON-AUTH-UNLISTED-CLOSED'],
      weight: 2,
      arbitrary: fc.oneof(randomBytes(256), requestish),
      request: (bytes) => ({
        host: data.host,
        port: data.port,
        localAddress: unlisted,
        bytes,
        endWrite: true,
      }),
      check: (_, answer) => {
        const base = baseFinding(answer);
        if (base) return base;
        return answer.bytes.length === 0
          ? null
          : mismatch(`an unlisted client got ${answer.bytes.length} bytes`);
      },
    });
  }
  return generators;
}

export function dataEndpointProbe(data: Data): LivenessProbe {
  return {
    face: 'data',
    request: () => ({
      host: data.host,
      port: data.port,
      localAddress: data.listedClient,
      bytes: Buffer.alloc(0),
      endWrite: true,
    }),
    ok: (answer) => answer.bytes.length > 0 && answer.ending !== 'timeout',
  };
}
