import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { inspectHead } from '../../../../../simulators/pbx/monitoring/endpoint/request-head.ts';

const MAX = 8192;
const inspect = (text: string | Buffer, ended = false) =>
  inspectHead(typeof text === 'string' ? Buffer.from(text, 'latin1') : text, ended, MAX);

test('nothing yet is incomplete; nothing at all is raw', () => {
  assert.deepEqual(inspect(''), { kind: 'incomplete' });
  assert.deepEqual(inspect('', true), { kind: 'raw' });
});

test('a complete head of a served method is http', () => {
  assert.deepEqual(inspect('GET /xml HTTP/1.1\r\nHost: x\r\n\r\n'), {
    kind: 'http',
    method: 'GET',
    target: '/xml',
  });
  assert.deepEqual(inspect('HEAD / HTTP/1.0\n\n'), { kind: 'http', method: 'HEAD', target: '/' });
});

test('a body after the head is not waited for', () => {
  assert.deepEqual(inspect('POST /json HTTP/1.1\r\nContent-Length: 100\r\n\r\n{"a'), {
    kind: 'http',
    method: 'POST',
    target: '/json',
  });
});

test('other methods are http too (the answer is 405)', () => {
  assert.deepEqual(inspect('DELETE /xml HTTP/1.1\r\n\r\n'), {
    kind: 'http',
    method: 'DELETE',
    target: '/xml',
  });
});

test('a request line without its empty line is incomplete until the client ends', () => {
  assert.deepEqual(inspect('GET /json HTTP/1.1\r\nHost: x\r\n'), { kind: 'incomplete' });
  assert.deepEqual(inspect('GET /json HTTP/1.1\r\nHost: x\r\n', true), {
    kind: 'http',
    method: 'GET',
    target: '/json',
  });
  assert.deepEqual(inspect('GET /json HTTP/1.1', true), { kind: 'http', method: 'GET', target: '/json' });
});

test('prefixes of a request line are incomplete', () => {
  for (const text of ['G', 'GE', 'GET', 'GET ', 'GET /x', 'GET /x ', 'GET /x HTTP/1.', 'GET /x HTTP/1.1\r']) {
    assert.deepEqual(inspect(text), { kind: 'incomplete' }, text);
  }
});

test('bytes that cannot start a request line are raw at once', () => {
  for (const text of [
    '\n',
    'hello',
    '\x00\x01\x02',
    'get / HTTP/1.1\r\n\r\n',
    'GET  /\r\n',
    'GET / FTP/1.0\r\n\r\n',
  ]) {
    assert.deepEqual(inspect(text), { kind: 'raw' }, JSON.stringify(text));
  }
  assert.deepEqual(inspect('GET /x', true), { kind: 'raw' });
});

test('an endless request line is too large; endless garbage is raw', () => {
  assert.deepEqual(inspect(`GET /${'a'.repeat(MAX)}`), { kind: 'too-large' });
  assert.deepEqual(inspect(`GET /${'a'.repeat(MAX)}\r\n\r\n`), { kind: 'too-large' });
  assert.deepEqual(inspect('A'.repeat(MAX + 10)), { kind: 'raw' });
});

test('headers beyond the bound are too large', () => {
  const head = `GET / HTTP/1.1\r\n${'X-Fill: y\r\n'.repeat(1000)}`;
  assert.deepEqual(inspect(head), { kind: 'too-large' });
  assert.deepEqual(inspect(`${head}\r\n`), { kind: 'too-large' });
});

test('MON-HTTP-METHODS: every served method with any target and split is recognised once the head is complete', () => {
  const target = fc.stringMatching(/^\/[!-~]{0,40}$/);
  fc.assert(
    fc.property(
      fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS'),
      target,
      fc.nat(60),
      (method, path, cut) => {
        const head = Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: pbx\r\n\r\n`, 'latin1');
        const prefix = head.subarray(0, Math.min(cut, head.length - 1));
        assert.notEqual(inspectHead(prefix, false, MAX).kind, 'raw');
        assert.deepEqual(inspectHead(head, false, MAX), { kind: 'http', method, target: path });
      },
    ),
  );
});

test('never throws on arbitrary bytes, and an ended input is never incomplete', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, ended) => {
      const verdict = inspectHead(Buffer.from(bytes), ended, 64);
      if (ended) assert.notEqual(verdict.kind, 'incomplete');
    }),
  );
});
