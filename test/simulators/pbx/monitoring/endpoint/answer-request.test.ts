import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type AnswerContext,
  answerRequest,
  type EndpointRequest,
} from '../../../../../simulators/pbx/monitoring/endpoint/answer-request.ts';
import type { SnapshotFormat } from '../../../../../simulators/pbx/state/types.ts';

/** A stand-in renderer: the body names its format and carries a non-ASCII character. */
const BODIES: Record<SnapshotFormat, string> = {
  checkmk: '<<<monitor_agent>>>\nHostname: pbx-ä\n',
  xml: '<pbx><license><owner>Grüße</owner></license></pbx>',
  json: '{"licenseOwner":"Grüße"}',
};
const context = (overrides: Partial<AnswerContext> = {}): AnswerContext => ({
  defaultFormat: 'checkmk',
  render: (format) => ({ body: Buffer.from(BODIES[format], 'utf8') }),
  ...overrides,
});

function parse(chunks: Buffer[]) {
  const bytes = Buffer.concat(chunks);
  const split = bytes.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body: bytes.subarray(split + 4) };
}

const http = (method: string, target: string): EndpointRequest => ({ mode: 'http', method, target });

test('MON-RAW-MODE: a raw answer is the default format without status line or headers', () => {
  assert.deepEqual(
    Buffer.concat(answerRequest({ mode: 'raw' }, context())),
    Buffer.from(BODIES.checkmk, 'utf8'),
  );
  assert.deepEqual(
    Buffer.concat(answerRequest({ mode: 'raw' }, context({ defaultFormat: 'xml' }))),
    Buffer.from(BODIES.xml, 'utf8'),
  );
});

test('MON-HTTP-HEADERS, MON-HTTP-CONTENT-LENGTH: GET answers 200 with type, byte length and Connection: close', () => {
  const { statusLine, headers, body } = parse(answerRequest(http('GET', '/xml'), context()));
  assert.equal(statusLine, 'HTTP/1.1 200 OK');
  assert.equal(headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(headers.get('content-length'), String(Buffer.byteLength(BODIES.xml, 'utf8')));
  assert.notEqual(Buffer.byteLength(BODIES.xml, 'utf8'), BODIES.xml.length);
  assert.equal(headers.get('connection'), 'close');
  assert.equal(body.toString('utf8'), BODIES.xml);
});

test('HEAD carries the GET headers without body', () => {
  const get = parse(answerRequest(http('GET', '/json'), context()));
  const chunks = answerRequest(http('HEAD', '/json'), context());
  const bytes = Buffer.concat(chunks);
  assert.ok(bytes.toString('latin1').endsWith('\r\n\r\n'));
  const head = parse(chunks);
  assert.equal(head.body.length, 0);
  assert.deepEqual(head.headers, get.headers);
});

test('OPTIONS is answered like GET plus an Allow header', () => {
  const { statusLine, headers, body } = parse(
    answerRequest(http('OPTIONS', '*'), context({ defaultFormat: 'json' })),
  );
  assert.equal(statusLine, 'HTTP/1.1 200 OK');
  assert.equal(headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
  assert.equal(body.toString('utf8'), BODIES.json);
});

test('other methods get 405 with Allow', () => {
  const { statusLine, headers, body } = parse(answerRequest(http('PUT', '/xml'), context()));
  assert.equal(statusLine, 'HTTP/1.1 405 Method Not Allowed');
  assert.equal(headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
  assert.equal(headers.get('content-length'), String(body.length));
});

test('an oversized or late head gets 400 or 408 with Connection: close', () => {
  for (const status of [400, 408] as const) {
    const { statusLine, headers, body } = parse(answerRequest({ mode: 'http-error', status }, context()));
    assert.match(statusLine, new RegExp(`^HTTP/1.1 ${status} `));
    assert.equal(headers.get('connection'), 'close');
    assert.equal(headers.get('content-length'), String(body.length));
  }
});

test('MON-ERR-RENDER-HTTP: a render error in HTTP mode is 500 with a correct Content-Length', () => {
  const errors: unknown[] = [];
  const failing = context({
    render: () => {
      throw new Error('template broken');
    },
    onRenderError: (error) => errors.push(error),
  });
  const { statusLine, headers, body } = parse(answerRequest(http('GET', '/checkmk'), failing));
  assert.equal(statusLine, 'HTTP/1.1 500 Internal Server Error');
  assert.equal(headers.get('content-length'), String(body.length));
  assert.equal(headers.get('connection'), 'close');
  assert.equal(errors.length, 1);
});

test('MON-ERR-RENDER-RAW: a render error without HTTP is exactly one ERROR: line', () => {
  const failing = context({
    render: () => {
      throw new Error('line one\nline two');
    },
  });
  const text = Buffer.concat(answerRequest({ mode: 'raw' }, failing)).toString('utf8');
  assert.equal(text, 'ERROR: line one line two\n');
});

test('MON-ERR-JSON, MON-UNSPEC-JSON-ERROR-STATUS: a failed JSON body is sent with 500 in HTTP and as is raw', () => {
  const errorBody = Buffer.from('{"error":"cannot serialise"}', 'utf8');
  const failing = context({ defaultFormat: 'json', render: () => ({ body: errorBody, failed: true }) });
  const { statusLine, headers, body } = parse(answerRequest(http('GET', '/json'), failing));
  assert.equal(statusLine, 'HTTP/1.1 500 Internal Server Error');
  assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(body, errorBody);
  assert.deepEqual(Buffer.concat(answerRequest({ mode: 'raw' }, failing)), errorBody);
});

test("a poller's answer is one ready buffer, head and body, made once per rendering (issue 31 §3)", () => {
  const body = Buffer.from(BODIES.checkmk, 'utf8');
  const sameRendering = context({ render: () => ({ body }) });
  const first = answerRequest(http('GET', '/checkmk'), sameRendering);
  assert.equal(first.length, 1);
  const { statusLine, headers, body: sent } = parse(first);
  assert.equal(statusLine, 'HTTP/1.1 200 OK');
  assert.equal(headers.get('content-length'), String(body.length));
  assert.deepEqual(sent, body);
  assert.equal(answerRequest(http('GET', '/'), sameRendering)[0], first[0]);
  // A new rendering (the state changed) gets its own answer; OPTIONS keeps its Allow line.
  const next = answerRequest(http('GET', '/checkmk'), context());
  assert.notEqual(next[0], first[0]);
  assert.deepEqual(next[0], first[0]);
  assert.equal(
    parse(answerRequest(http('OPTIONS', '/'), sameRendering)).headers.get('allow'),
    'GET, POST, HEAD, OPTIONS',
  );
});
