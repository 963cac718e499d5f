import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { tcpExchange } from '../../../steps/support/tcp-exchange.ts';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return address.port;
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

test('reads until the peer closes and reports it', async () => {
  const server = createServer((socket) => socket.end('<<<monitor_agent>>>\n'));
  const port = await listen(server);
  try {
    const outcome = await tcpExchange({ host: '127.0.0.1', port, timeoutMs: 2000 });
    assert.equal(outcome.connected, true);
    assert.equal(outcome.end, 'peer-closed');
    assert.equal(outcome.bytes.toString(), '<<<monitor_agent>>>\n');
  } finally {
    await close(server);
  }
});

test('a peer that answers nothing and keeps the connection open ends in a timeout', async () => {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => sockets.add(socket));
  const port = await listen(server);
  try {
    const outcome = await tcpExchange({ host: '127.0.0.1', port, timeoutMs: 100 });
    assert.equal(outcome.connected, true);
    assert.equal(outcome.end, 'timeout');
    assert.equal(outcome.bytes.length, 0);
  } finally {
    for (const s of sockets) s.destroy();
    await close(server);
  }
});

test('a closed port is a failed connection, not an exception', async () => {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  const outcome = await tcpExchange({ host: '127.0.0.1', port, timeoutMs: 2000 });
  assert.equal(outcome.connected, false);
  assert.equal(outcome.end, 'connect-failed');
  assert.equal(outcome.errorCode, 'ECONNREFUSED');
});

test('poses as another local address', async () => {
  let remote = '';
  const server = createServer((socket) => {
    remote = socket.remoteAddress ?? '';
    socket.end();
  });
  const port = await listen(server);
  try {
    await tcpExchange({ host: '127.0.0.1', port, localAddress: '127.0.0.2', timeoutMs: 2000 });
    assert.equal(remote, '127.0.0.2');
  } finally {
    await close(server);
  }
});
