import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { durationClock } from '../../../../../simulators/shared/clock.ts';
import { eventually, exchange, openSocket, parseHttp, request, startEndpoint } from './endpoint-harness.ts';

/** Bad input, each case bounded by the endpoint's own limits (issue 2 §10, MON-UNSPEC-LIMITS). */

test('garbage bytes get the raw default answer, like an agent that ignores input', async () => {
  const pbx = await startEndpoint();
  try {
    for (const send of [Buffer.from([0, 1, 2, 255, 254]), 'hello there\r\n', '\n']) {
      const { bytes, ending } = await exchange(pbx.port(), { send });
      assert.equal(ending, 'end');
      assert.equal(bytes.subarray(0, 2).toString('latin1'), '<<', JSON.stringify(String(send)));
    }
  } finally {
    await pbx.close();
  }
});

test('an endless request line is answered 400 and closed; the buffer stays bounded', async () => {
  const pbx = await startEndpoint();
  try {
    const { bytes } = await exchange(pbx.port(), { send: `GET /${'a'.repeat(64 * 1024)}` });
    const answer = parseHttp(bytes);
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.get('connection'), 'close');
  } finally {
    await pbx.close();
  }
});

test('endless headers are answered 400 and closed', async () => {
  const pbx = await startEndpoint();
  try {
    const { bytes } = await exchange(pbx.port(), {
      send: `GET / HTTP/1.1\r\n${'X-Fill: yyyyyyyy\r\n'.repeat(2000)}`,
    });
    assert.equal(parseHttp(bytes).status, 400);
  } finally {
    await pbx.close();
  }
});

test('a slow client trickling one byte at a time is answered 408 and closed after the head timeout', async () => {
  const pbx = await startEndpoint(undefined, { limits: { headTimeoutMs: 200 } });
  const socket = await openSocket(pbx.port());
  const head = request('GET', '/json');
  const chunks: Buffer[] = [];
  let sent = 0;
  const trickle = setInterval(() => {
    if (sent < head.length && !socket.destroyed) socket.write(head[sent++]!);
  }, 30);
  try {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error('not closed')), 5000);
      socket.on('close', () => {
        clearTimeout(guard);
        resolve();
      });
      socket.on('error', () => {});
    });
    assert.ok(sent < head.length, 'closed before the head was complete');
    assert.equal(parseHttp(Buffer.concat(chunks)).status, 408);
  } finally {
    clearInterval(trickle);
    socket.destroy();
    await pbx.close();
  }
});

test('a client that never closes its side is dropped after the answer timeout', async () => {
  const pbx = await startEndpoint(undefined, { limits: { answerTimeoutMs: 200 } });
  const socket = await openSocket(pbx.port(), request('GET', '/xml'));
  try {
    // Half-open on our side: only the server's answer timeout can end this connection.
    socket.allowHalfOpen = true;
    socket.on('error', () => {});
    // The answer arriving proves the server holds the connection; it leaves the count only on close.
    await new Promise((resolve) => socket.once('data', resolve));
    socket.resume();
    await eventually(() => pbx.endpoint.openConnections() === 0, 'dropped by the server');
  } finally {
    socket.destroy();
    await pbx.close();
  }
});

test('300 idle connections do not stall a normal request', async () => {
  // All from 127.0.0.1, so the per-address cap is lifted here (per-address-limit.test.ts covers it).
  const pbx = await startEndpoint(
    (s) => {
      s.monitoring.rawGraceMs = 10_000;
    },
    { limits: { maxConnectionsPerAddress: 1000 } },
  );
  const idle: Socket[] = [];
  try {
    const opened = await Promise.all(Array.from({ length: 300 }, () => openSocket(pbx.port(), 'GET /')));
    idle.push(...opened);
    for (const socket of idle) socket.on('error', () => {});
    const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json') });
    assert.equal(parseHttp(bytes).status, 200);
    assert.ok(
      idle.every((socket) => !socket.destroyed),
      'idle connections were kept, not dropped',
    );
  } finally {
    for (const socket of idle) socket.destroy();
    await pbx.close();
  }
});

test('a client resetting mid-request does not disturb the server', async () => {
  const pbx = await startEndpoint();
  try {
    for (let i = 0; i < 5; i++) {
      const socket = await openSocket(pbx.port(), 'GET /js');
      socket.resetAndDestroy();
    }
    const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json') });
    assert.equal(parseHttp(bytes).status, 200);
  } finally {
    await pbx.close();
  }
});

test('a client that half-closes after its request still gets the HTTP answer', async () => {
  const pbx = await startEndpoint();
  try {
    const { bytes } = await exchange(pbx.port(), { send: 'GET /xml HTTP/1.0\r\n', endWrite: true });
    const answer = parseHttp(bytes);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/xml; charset=utf-8');
  } finally {
    await pbx.close();
  }
});

test('MON-RAW-MODE: the raw-mode grace runs on the duration clock: a silent client is answered once it has passed there', async () => {
  const clock = durationClock();
  const pbx = await startEndpoint(
    (state) => {
      state.monitoring.rawGraceMs = 60_000;
    },
    { durationClock: clock },
  );
  try {
    const socket = await openSocket(pbx.port());
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    await eventually(() => clock.pendingTimers() === 1, 'the grace armed on the duration clock');
    // The clock also flows with real time since the grace was armed: stop well short of it.
    clock.advance(50_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(Buffer.concat(chunks).length, 0, 'answered before the grace had passed');
    clock.advance(10_000);
    await ended;
    socket.destroy();
    assert.equal(Buffer.concat(chunks).subarray(0, 3).toString('latin1'), '<<<');
    assert.equal(clock.pendingTimers(), 0);
  } finally {
    await pbx.close();
    clock.dispose();
  }
});

test('a client that sends within the grace clears it from the duration clock', async () => {
  const clock = durationClock();
  const pbx = await startEndpoint(() => {}, { durationClock: clock });
  try {
    const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json') });
    assert.equal(parseHttp(bytes).status, 200);
    await eventually(() => clock.pendingTimers() === 0, 'the grace cleared from the duration clock');
  } finally {
    await pbx.close();
    clock.dispose();
  }
});

test('a connection whose first read is its whole head arms no head timer; a partial head still gets 408 on time', async () => {
  // Timers armed with the head timeout, counted at the global `setTimeout` the endpoint calls.
  const realSetTimeout = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay === 432) armed++;
    return realSetTimeout(() => callback(...args), delay);
  }) as typeof setTimeout;
  const pbx = await startEndpoint(undefined, { limits: { headTimeoutMs: 432 } });
  try {
    for (let i = 0; i < 3; i++) {
      const { bytes } = await exchange(pbx.port(), { send: request('GET', '/json') });
      assert.equal(parseHttp(bytes).status, 200);
    }
    assert.equal(armed, 0, 'a head timer for a whole head');
    // Part of a head, then nothing: 408 at the head timeout counted from the connection.
    const opened = performance.now();
    const socket = await openSocket(pbx.port(), 'GET /json HT');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const afterMs = performance.now() - opened;
    assert.equal(parseHttp(Buffer.concat(chunks)).status, 408);
    assert.ok(afterMs >= 400 && afterMs < 3_000, `408 after ${afterMs} ms`);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    await pbx.close();
  }
});
