import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { LineReader } from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { onLines } from '../../../../simulators/shared/wire/on-lines.ts';

test('onLines hands each line to the handler in order, across chunk boundaries', () => {
  const socket = new PassThrough();
  const seen: string[] = [];
  onLines(socket, new LineReader(), (line) => seen.push(line));
  socket.emit('data', Buffer.from('{"a":1}\n{"b"'));
  socket.emit('data', Buffer.from(':2}\n\n{"c":3}'));
  assert.deepEqual(seen, ['{"a":1}', '{"b":2}', '']);
  socket.emit('data', Buffer.from('\n'));
  assert.deepEqual(seen, ['{"a":1}', '{"b":2}', '', '{"c":3}']);
  assert.equal(socket.destroyed, false);
});

test('onLines destroys the socket on a line past the bound and handles no line of that chunk', () => {
  const socket = new PassThrough();
  const seen: string[] = [];
  onLines(socket, new LineReader(8), (line) => seen.push(line));
  socket.emit('data', Buffer.from('short\nmuch too long for eight\n'));
  assert.deepEqual(seen, []);
  assert.equal(socket.destroyed, true);
});

test('onLines destroys the socket when an unterminated line outgrows the bound', () => {
  const socket = new PassThrough();
  const seen: string[] = [];
  onLines(socket, new LineReader(8), (line) => seen.push(line));
  socket.emit('data', Buffer.from('12345'));
  assert.equal(socket.destroyed, false);
  socket.emit('data', Buffer.from('6789'));
  assert.equal(socket.destroyed, true);
  assert.deepEqual(seen, []);
});
