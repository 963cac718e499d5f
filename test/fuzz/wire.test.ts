import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { splitRuns } from '../../src/fuzz/run-fuzz.ts';
import { httpRequest, ncLine, parseHttpAnswer } from '../../src/fuzz/wire.ts';

test('splitRuns: shares follow the weights and add up to the runs', () => {
  assert.deepEqual(splitRuns(400, [2, 3, 2]), [115, 171, 114]);
  assert.deepEqual(splitRuns(10, [1]), [10]);
  for (const runs of [1, 7, 999, 20_000]) {
    assert.equal(
      splitRuns(runs, [5, 2, 2, 1]).reduce((a, b) => a + b, 0),
      runs,
    );
  }
});

test('parseHttpAnswer: status, lower-case headers, body, chunked bodies; null for anything else', () => {
  const plain = parseHttpAnswer(
    Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\nX-A: b\r\n\r\nabc'),
  );
  assert.equal(plain?.status, 404);
  assert.equal(plain?.headers.get('x-a'), 'b');
  assert.equal(plain?.body.toString(), 'abc');
  const chunked = parseHttpAnswer(
    Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'),
  );
  assert.equal(chunked?.body.toString(), 'abcde');
  assert.equal(parseHttpAnswer(Buffer.from('<<<check_mk>>>\n')), null);
  assert.equal(parseHttpAnswer(Buffer.from('HTTP/1.1 200 OK\r\n')), null);
});

test('ncLine: printf reproduces the exact bytes, quotes, percent signs and NUL included', () => {
  const bytes = Buffer.concat([
    httpRequest('POST', "/x?a='b'%25", [['X', 'y']], Buffer.from([0, 1, 0x27, 0x25, 0x5c, 0xff, 0x0a])),
  ]);
  const line = ncLine({ host: '127.0.0.1', port: 9, bytes, localAddress: '127.0.0.2', endWrite: true });
  assert.match(line, / \| nc -N -w 5 -s 127\.0\.0\.2 127\.0\.0\.1 9$/);
  const printf = line.slice(0, line.indexOf(' | nc'));
  const format = printf.slice("printf '".length, -1);
  const out = execFileSync('sh', ['-c', `printf '${format}'`]);
  assert.deepEqual(out, bytes);
});
