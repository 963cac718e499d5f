import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { start as startFleet } from '../../../../simulators/fleet-controller/index.ts';
import { MAINTENANCE_BASE_PATH, start as startPbx } from '../../../../simulators/pbx/index.ts';
import { STAGED_CLOSE_MS, UNREAD_BODY_LIMIT_BYTES } from '../../../../simulators/shared/http/slow-clients.ts';

/**
 * Issue 29 item 2: a face that answers a request without using its body (401, 404, 405, 413)
 * closes the connection once more than 64 KiB of the body has yet to arrive, instead of reading
 * it to the end to keep the connection (a 401 took 5-10 GiB in 5 s). Face by face, a client
 * declares 1 GiB, sends 256 KiB and stops: the answer must say `Connection: close` and the
 * connection must end. A body whose unread rest is within 64 KiB is still drained and the
 * connection kept.
 */

const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };
const TOKEN = 'unread-body-test-control-token-0123456789';
const GIB = 1024 * 1024 * 1024;

interface Outcome {
  status: number;
  connection: string | undefined;
  /** Whether the server ended the connection within `closeWithinMs` after its answer. */
  closed: boolean;
}

/**
 * Sends a request head declaring `declared` body bytes, then `send` of them, and reads the answer;
 * then waits `closeWithinMs` for the server to end the connection.
 */
function sendUnreadBody(
  url: string,
  head: { method: string; path: string; headers?: Record<string, string> },
  { declared = GIB, send = 256 * 1024, closeWithinMs = 3_000 } = {},
): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let answer: Omit<Outcome, 'closed'> | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 10 s: ${received.toString('latin1').slice(0, 200)}`));
    }, 10_000);
    const done = (closed: boolean) => {
      clearTimeout(guard);
      clearTimeout(closeTimer);
      socket.destroy();
      if (answer) resolve({ ...answer, closed });
      else reject(new Error(`closed before a complete answer: ${received.toString('latin1').slice(0, 200)}`));
    };
    socket.on('connect', () => {
      const lines = [
        `${head.method} ${head.path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Length: ${declared}`,
        ...Object.entries({ 'Content-Type': 'application/octet-stream', ...head.headers }).map(
          ([name, value]) => `${name}: ${value}`,
        ),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.write(Buffer.alloc(send, 0x61));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (answer) return;
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headText = received.subarray(0, end).toString('latin1');
      const headers = new Map(
        headText
          .split('\r\n')
          .slice(1)
          .map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );
      const length = Number(headers.get('content-length') ?? 0);
      if (received.length < end + 4 + length && headers.get('transfer-encoding') === undefined) return;
      answer = { status: Number(headText.split(' ')[1]), connection: headers.get('connection') };
      closeTimer = setTimeout(() => done(false), closeWithinMs);
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
  });
}

function assertClosed(outcome: Outcome, status: number, face: string): void {
  assert.equal(outcome.status, status, face);
  assert.equal(outcome.connection?.toLowerCase(), 'close', `${face}: the answer says Connection: close`);
  assert.ok(outcome.closed, `${face}: the connection ends after the answer`);
}

test('the PBX web server: the maintenance API (401 without a token) and an unknown path (404) close instead of reading 1 GiB', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  assertClosed(
    await sendUnreadBody(pbx.urls.web, { method: 'POST', path: `${MAINTENANCE_BASE_PATH}/commands` }),
    401,
    'maintenance API without a token',
  );
  assertClosed(
    await sendUnreadBody(pbx.urls.web, {
      method: 'POST',
      path: `${MAINTENANCE_BASE_PATH}/commands`,
      headers: { authorization: 'Bearer not-a-token-of-this-pbx' },
    }),
    401,
    'maintenance API with a wrong token',
  );
  assertClosed(
    await sendUnreadBody(pbx.urls.web, { method: 'POST', path: '/no/such/path' }),
    404,
    'unknown path',
  );
  assertClosed(
    await sendUnreadBody(pbx.urls.web, {
      method: 'POST',
      path: '/xml-rpc',
      headers: { 'Content-Type': 'text/xml' },
    }),
    413,
    'XML-RPC',
  );
});

/**
 * Opens a connection to the PBX web server, sends a head declaring 1 GiB and 256 KiB of it, and
 * waits until the server has answered and ended its side; returns the socket, what it received and
 * the errors it met.
 */
async function answeredMidBody(
  url: string,
): Promise<{ socket: Socket; received: () => string; errors: string[] }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  await once(socket, 'connect');
  let received = '';
  const errors: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
  const ended = once(socket, 'end');
  socket.write(`POST /no/such/path HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: ${GIB}\r\n\r\n`);
  socket.write(Buffer.alloc(256 * 1024, 0x61));
  await ended;
  return { socket, received: () => received, errors };
}

test('an answer that closes on an unread body closes in stages: a client still sending its body meets no reset until it ends (RFC 9112 §9.6)', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const { socket, received, errors } = await answeredMidBody(pbx.urls.web);
  t.after(() => socket.destroy());
  assert.match(received(), /^HTTP\/1\.1 404 [\s\S]*\r\nConnection: close\r\n/i);
  // A client streaming its body goes on sending until it has read the answer: the server, its
  // side ended, still reads and drops, so no reset can discard the answer before it is read.
  for (let i = 0; i < 16; i++) socket.write(Buffer.alloc(64 * 1024, 0x61));
  await sleep(300);
  assert.deepEqual(errors, [], 'the server reset the connection while the client was still sending');
  assert.equal(socket.destroyed, false);
  socket.end();
  await new Promise((resolve) => socket.once('close', resolve));
  assert.deepEqual(errors, [], 'the client ended its side and the server closed');
});

test('a staged close ends after its limit when the client goes on sending', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const { socket } = await answeredMidBody(pbx.urls.web);
  t.after(() => socket.destroy());
  // The server drops the connection: the client's next write meets the reset, then it closes.
  const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
  const pump = setInterval(() => {
    if (!socket.destroyed) socket.write(Buffer.alloc(1024, 0x61));
  }, 20);
  t.after(() => clearInterval(pump));
  const outcome = await Promise.race([closed, sleep(STAGED_CLOSE_MS + 3_000).then(() => 'open' as const)]);
  assert.equal(outcome, 'closed', 'the connection was still open after the staged close limit');
});

test('the PBX web server keeps the connection when what is left of an unused body is within 64 KiB', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const kept = await sendUnreadBody(
    pbx.urls.web,
    { method: 'POST', path: '/no/such/path' },
    { declared: UNREAD_BODY_LIMIT_BYTES, send: 1024, closeWithinMs: 500 },
  );
  assert.equal(kept.status, 404);
  assert.notEqual(kept.connection?.toLowerCase(), 'close');
  assert.equal(kept.closed, false, 'a small rest is drained and the connection kept');
});

test('the fleet controller: MCP (401 without a bearer, 405 for GET) and REST close instead of reading 1 GiB', async (t) => {
  const fleet = await startFleet({ scryptCost: FAST_SCRYPT });
  t.after(() => fleet.close());
  assertClosed(
    await sendUnreadBody(fleet.urls.mcp, { method: 'POST', path: '/mcp' }),
    401,
    'MCP without a bearer',
  );
  assertClosed(
    await sendUnreadBody(fleet.urls.mcp, {
      method: 'POST',
      path: '/mcp',
      headers: { authorization: 'Bearer no-such-token' },
    }),
    401,
    'MCP with an unknown bearer',
  );
  assertClosed(await sendUnreadBody(fleet.urls.mcp, { method: 'GET', path: '/mcp' }), 405, 'MCP GET');
  assertClosed(await sendUnreadBody(fleet.urls.api, { method: 'POST', path: '/api/v1/sites' }), 413, 'REST');
});

test('the control planes of the PBX and the fleet (401 without the token) close instead of reading 1 GiB', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' }, controlToken: TOKEN });
  t.after(() => pbx.close());
  const fleet = await startFleet({ scryptCost: FAST_SCRYPT, controlToken: TOKEN });
  t.after(() => fleet.close());
  for (const [face, url] of [
    ['PBX control plane', pbx.urls.control],
    ['fleet control plane', fleet.urls.control],
  ] as const) {
    const { pathname } = new URL(url!);
    assertClosed(
      await sendUnreadBody(url!, { method: 'POST', path: `${pathname.replace(/\/$/, '')}/state` }),
      401,
      face,
    );
  }
});

test('the data endpoint drops a connection that goes on sending more than 64 KiB after its answer', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const status = await pbx.control.endpointStatus();
  const socket = connect({ host: '127.0.0.1', port: status.port!, allowHalfOpen: true });
  t.after(() => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('data', () => {});
  const ended = new Promise<'closed'>((resolve) => {
    socket.on('error', () => resolve('closed'));
    socket.on('close', () => resolve('closed'));
  });
  socket.write(`GET /checkmk HTTP/1.1\r\nHost: pbx\r\nContent-Length: ${GIB}\r\n\r\n`);
  let sent = 0;
  const piece = Buffer.alloc(16 * 1024, 0x62);
  const pump = setInterval(() => {
    if (socket.destroyed || sent >= 8 * 1024 * 1024) return;
    socket.write(piece);
    sent += piece.length;
  }, 2);
  t.after(() => clearInterval(pump));
  const outcome = await Promise.race([
    ended,
    new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 4_000)),
  ]);
  clearInterval(pump);
  assert.equal(outcome, 'closed', `the connection was still open after ${sent} bytes sent`);
});
