import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { tcpExchange } from '../../../src/core/tcp-exchange.ts';

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

test('a silent client ticks until the first byte arrives, and never after', async () => {
  const sockets = new Set<import('node:net').Socket>();
  let ticks = 0;
  let ticksAtAnswer = -1;
  // The server answers once the client has ticked three times: as the simulator answers a silent
  // client once its grace has passed on the clock the ticks advance.
  const server = createServer((socket) => sockets.add(socket));
  const port = await listen(server);
  try {
    const outcome = await tcpExchange({
      host: '127.0.0.1',
      port,
      timeoutMs: 4000,
      whileSilent: () => {
        ticks++;
        if (ticks === 3) {
          ticksAtAnswer = ticks;
          for (const s of sockets) s.end('<<<raw>>>\n');
        }
      },
    });
    assert.equal(outcome.end, 'peer-closed');
    assert.equal(outcome.bytes.toString(), '<<<raw>>>\n');
    assert.equal(ticksAtAnswer, 3);
    const settled = ticks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(ticks, settled, 'it kept ticking after the exchange ended');
  } finally {
    for (const s of sockets) s.destroy();
    await close(server);
  }
});

test('a client that sends is never silent: no tick', async () => {
  const server = createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\n\r\n')));
  const port = await listen(server);
  let ticks = 0;
  try {
    const outcome = await tcpExchange({
      host: '127.0.0.1',
      port,
      send: 'GET / HTTP/1.1\r\n\r\n',
      timeoutMs: 2000,
      whileSilent: () => ticks++,
    });
    assert.equal(outcome.end, 'peer-closed');
    assert.equal(ticks, 0);
  } finally {
    await close(server);
  }
});

test('a whole answer ends the exchange while the peer keeps the connection open; a half-close reaches the peer', async () => {
  const sockets = new Set<import('node:net').Socket>();
  let peerSawEnd = false;
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.resume();
    socket.on('end', () => {
      peerSawEnd = true;
      socket.write('ok.');
    });
  });
  const port = await listen(server);
  try {
    const outcome = await tcpExchange({
      host: '127.0.0.1',
      port,
      send: 'hello',
      endWrite: true,
      timeoutMs: 2000,
      isComplete: (bytes) => bytes.toString().endsWith('.'),
    });
    assert.equal(peerSawEnd, true);
    assert.equal(outcome.end, 'complete');
    assert.equal(outcome.bytes.toString(), 'ok.');
    assert.deepEqual(
      outcome.chunks.map((c) => c.length),
      [3],
    );
    assert.ok(outcome.connectMs >= 0 && outcome.endAtMs >= (outcome.chunks[0]?.atMs ?? 0));
  } finally {
    for (const s of sockets) s.destroy();
    await close(server);
  }
});

test('reading stops at maxBytes; connectOnly closes at once', async () => {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.write(Buffer.alloc(64 * 1024, 0x61));
  });
  const port = await listen(server);
  try {
    const bounded = await tcpExchange({ host: '127.0.0.1', port, timeoutMs: 2000, maxBytes: 1024 });
    assert.equal(bounded.end, 'too-large');
    assert.ok(bounded.bytes.length >= 1024);
    const only = await tcpExchange({ host: '127.0.0.1', port, timeoutMs: 2000, connectOnly: true });
    assert.equal(only.end, 'connected');
    assert.equal(only.bytes.length, 0);
  } finally {
    for (const s of sockets) s.destroy();
    await close(server);
  }
});
