import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildHttpRequest,
  headerValue,
  headerValues,
  parseHttpResponse,
} from '../../../steps/support/http-message.ts';

test('parses status line, header fields in order and the body', () => {
  const bytes = Buffer.from(
    'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\ncontent-length: 3\r\nX-A: 1\r\nx-a: 2\r\n\r\nabc',
  );
  const response = parseHttpResponse(bytes);
  assert.ok(response);
  assert.equal(response.status, 200);
  assert.equal(response.reason, 'OK');
  assert.equal(response.httpVersion, '1.1');
  assert.equal(headerValue(response, 'CONTENT-LENGTH'), '3');
  assert.deepEqual(headerValues(response, 'x-a'), ['1', '2']);
  assert.equal(response.body.toString(), 'abc');
});

test('keeps a multi-word reason phrase', () => {
  const response = parseHttpResponse(Buffer.from('HTTP/1.1 500 Internal Server Error\r\n\r\n'));
  assert.equal(response?.reason, 'Internal Server Error');
});

test('returns undefined for bytes that are not an HTTP response', () => {
  assert.equal(parseHttpResponse(Buffer.from('<<<monitor_agent>>>\nVersion: 2.5.0p6\n')), undefined);
  assert.equal(parseHttpResponse(Buffer.alloc(0)), undefined);
});

test('builds a request head with Host and a blank line', () => {
  assert.equal(
    buildHttpRequest('GET', '/json', '127.0.0.1:6556'),
    'GET /json HTTP/1.1\r\nHost: 127.0.0.1:6556\r\n\r\n',
  );
});
