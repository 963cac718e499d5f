import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import { Client, request } from 'undici';
import { COMMAND_NAMES } from '../../../../simulators/pbx/maintenance/command-names.ts';
import {
  MAX_BODY_BYTES,
  SYSTEM_FUNCTIONS_PATH,
} from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import {
  createMaintenanceHandler,
  type MaintenanceHandlerOptions,
} from '../../../../simulators/pbx/maintenance/maintenance-handler.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { createFixture, type MaintenanceFixture } from './maintenance-fixture.ts';

interface Harness {
  f: MaintenanceFixture;
  server: Server;
  origin: string;
  auth: { authorization: string };
}

async function withServer(
  run: (h: Harness) => Promise<void>,
  options: MaintenanceHandlerOptions = {},
  wrap?: (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
  ) => (req: IncomingMessage, res: ServerResponse) => void,
): Promise<void> {
  const f = createFixture();
  const handler = createMaintenanceHandler(f.api, options);
  const server = createServer(wrap ? wrap(handler) : handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run({
      f,
      server,
      origin: `http://127.0.0.1:${port}`,
      auth: { authorization: `Bearer ${f.secret}` },
    });
  } finally {
    await closeServer(server);
    f.close();
  }
}

/** A body stream of `total` bytes in chunks of the given sizes (cycled), never held whole. */
function bodyStream(total: number, chunkSizes: number[] = [65_536]): Readable {
  let sent = 0;
  let index = 0;
  const block = Buffer.alloc(Math.max(...chunkSizes), 0x20);
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(chunkSizes[index++ % chunkSizes.length]!, total - sent);
      sent += size;
      this.push(block.subarray(0, size));
    },
  });
}

test('MAINT-JSON-RESPONSES: answers over HTTP are application/json with the exact bodies', async () => {
  await withServer(async ({ origin, auth }) => {
    const list = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}`, { headers: auth });
    assert.equal(list.statusCode, 200);
    assert.equal(list.headers['content-type'], 'application/json');
    assert.deepEqual(await list.body.json(), { commands: [...COMMAND_NAMES] });
    const denied = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}`);
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['www-authenticate'], 'Bearer');
    assert.deepEqual(await denied.body.json(), { status: 'error', message: 'invalid or missing API token' });
    const accepted = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/DeleteFaxes`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: '{"trigger":"ERP"}',
    });
    assert.equal(accepted.statusCode, 200);
    assert.deepEqual(await accepted.body.json(), { status: 'ok' });
  });
});

test('MAINT-EXEC-ASYNC: over HTTP the 200 is written before the command runs and its event is recorded', async () => {
  const order: string[] = [];
  await withServer(
    async ({ f, origin, auth }) => {
      f.executor.on('completed', (event) => order.push(`event ${event.command}`));
      const response = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, {
        method: 'POST',
        headers: auth,
      });
      await response.body.json();
      await f.settle();
      assert.deepEqual(order, ['end 200', 'event HangupAllCalls']);
    },
    {},
    (handler) => (req, res) => {
      const end = res.end.bind(res);
      res.end = ((...args: Parameters<typeof end>) => {
        order.push(`end ${res.statusCode}`);
        return end(...args);
      }) as typeof res.end;
      handler(req, res);
    },
  );
});

test('MAINT-POST-BODY-UP-TO-1MIB, MAINT-ERR-413-BODY-TOO-LARGE: the limit holds however the body is chunked', async () => {
  await withServer(
    async ({ f, origin, auth }) => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES - 1, MAX_BODY_BYTES + 4096),
          fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 5 }),
          fc.boolean(),
          async (size, chunks, declared) => {
            const response = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/DeleteFaxes`, {
              method: 'POST',
              headers: declared ? { ...auth, 'content-length': String(size) } : auth,
              body: bodyStream(size, chunks),
            });
            const body = await response.body.json();
            if (size <= MAX_BODY_BYTES)
              assert.deepEqual([response.statusCode, body], [200, { status: 'ok' }]);
            else assert.deepEqual([response.statusCode, body], [413, { ok: false, error: 'body-too-large' }]);
          },
        ),
        { numRuns: 24 },
      );
      await f.settle();
      // The property is about chunking, not about the body timeout: a megabyte in one-byte chunks can
      // take longer than the default 10 s on a loaded machine, which would cut the client off.
    },
    { bodyTimeoutMs: 300_000 },
  );
});

test('MAINT-ERR-413-BODY-TOO-LARGE: a 100 MB body is cut at the limit and memory grows by only a few MB', async () => {
  await withServer(async ({ f, origin, auth }) => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const response = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, {
        method: 'POST',
        headers: auth,
        body: bodyStream(100 * 1024 * 1024),
      });
      assert.equal(response.statusCode, 413);
      assert.deepEqual(await response.body.json(), { ok: false, error: 'body-too-large' });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.ok(peak - before < 40 * 1024 * 1024, `RSS grew by ${((peak - before) / 1048576).toFixed(1)} MiB`);
    await f.settle();
    assert.equal(f.store.read().channels.active.length, 7, 'nothing ran');
  });
});

test('an early answer (401, 404) reaches a client that is still sending a large body', async () => {
  await withServer(async ({ origin, auth }) => {
    const denied = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls`, {
      method: 'POST',
      body: bodyStream(8 * 1024 * 1024),
    });
    assert.equal(denied.statusCode, 401);
    await denied.body.json();
    const unknown = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}/Nope`, {
      method: 'POST',
      headers: auth,
      body: bodyStream(8 * 1024 * 1024),
    });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(await unknown.body.json(), { status: 'error', message: 'unknown command' });
  });
});

test('a slow-body client is cut off after the body timeout, without an answer and without running anything', async () => {
  await withServer(
    async ({ f, server, auth }) => {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        received += chunk;
      });
      socket.write(
        `POST ${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls HTTP/1.1\r\nHost: pbx\r\nAuthorization: ${auth.authorization}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mode":',
      );
      await new Promise<void>((resolve) => {
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
      assert.equal(received, '');
      await f.settle();
      assert.deepEqual(f.outcomes(), []);
    },
    { bodyTimeoutMs: 150 },
  );
});

test('a client that aborts mid-body leaves nothing accepted and the server serving', async () => {
  await withServer(async ({ f, server, origin, auth }) => {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST ${SYSTEM_FUNCTIONS_PATH}/HangupAllCalls HTTP/1.1\r\nHost: pbx\r\nAuthorization: ${auth.authorization}\r\n` +
        'Content-Length: 1000\r\n\r\n{"x":1',
    );
    socket.destroy();
    const after = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}`, { headers: auth });
    assert.equal(after.statusCode, 200);
    await after.body.text();
    await f.settle();
    assert.deepEqual(f.outcomes(), []);
  });
});

test('MAINT-MODULE-VERSION-GATE: over HTTP an old module answers the web server’s plain 404', async () => {
  await withServer(async ({ f, origin, auth }) => {
    f.store.patch({ maintenance: { moduleVersion: '26.7.28' } });
    const response = await request(`${origin}${SYSTEM_FUNCTIONS_PATH}`, { headers: auth });
    assert.equal(response.statusCode, 404);
    assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(await response.body.text(), 'not found\n');
  });
});

test('MAINT-EXEC-ASYNC: 10,000 commands from 50 concurrent clients are each executed or discarded exactly once', async () => {
  const clients = 50;
  const perClient = 200;
  const bodies = [undefined, '{"confirmed":true,"type":"sip","trigger":"ERP"}', '{not json'];
  const plan = (client: number, i: number) => {
    const n = client * perClient + i;
    return { command: COMMAND_NAMES[n % COMMAND_NAMES.length]!, body: bodies[n % bodies.length] };
  };
  await withServer(async ({ f, origin, auth }) => {
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        const connection = new Client(origin, { pipelining: 1 });
        try {
          for (let i = 0; i < perClient; i++) {
            const { command, body } = plan(client, i);
            const response = await connection.request({
              method: 'POST',
              path: `${SYSTEM_FUNCTIONS_PATH}/${command}`,
              headers: auth,
              body,
            });
            await response.body.text();
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          }
        } finally {
          await connection.close();
        }
      }),
    );
    assert.deepEqual([...statuses], [[200, clients * perClient]]);
    await f.settle();
    const outcomes = f.outcomes();
    assert.equal(outcomes.length, clients * perClient);
    const ids = new Set(outcomes.map((o) => o.data['commandId']));
    assert.equal(ids.size, clients * perClient, 'each command once');
    let wantDiscarded = 0;
    let wantEvents = 0;
    for (let client = 0; client < clients; client++) {
      for (let i = 0; i < perClient; i++) {
        const { command, body } = plan(client, i);
        const needsParameters = command === 'DeleteCallData' || command === 'ProvisionDevices';
        const usable = body === bodies[1];
        if (needsParameters && !usable) wantDiscarded++;
        else if (command !== 'RestartPbx' && command !== 'UpdatePbx') wantEvents++;
      }
    }
    const discardedCount = outcomes.filter((o) => o.message === 'maintenance command discarded').length;
    assert.equal(discardedCount, wantDiscarded);
    assert.equal(outcomes.length - discardedCount, clients * perClient - wantDiscarded);
    assert.equal(f.executor.events().length, wantEvents);
    assert.ok(outcomes.every((o) => o.data['trigger'] === 'API'));
  });
});
