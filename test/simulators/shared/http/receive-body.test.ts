import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  pendingBodyDeadlines,
  receiveBody,
  type StreamedBody,
} from '../../../../simulators/shared/http/read-body.ts';

/**
 * `receiveBody`, the callback form of `streamBody` a face's hot path uses (issue 31 §3): the
 * outcome comes exactly once, at once when the head decides it, else in the turn the body ends,
 * with no promise in between.
 */
async function withServer(
  onRequest: (req: IncomingMessage, outcomes: StreamedBody[], sync: boolean[]) => void,
  send: (port: number) => Promise<void>,
): Promise<{ outcomes: StreamedBody[]; sync: boolean[] }> {
  const outcomes: StreamedBody[] = [];
  const sync: boolean[] = [];
  const server = createServer((req, res) => {
    onRequest(req, outcomes, sync);
    req.on('end', () => res.end('ok'));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await send((server.address() as AddressInfo).port);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return { outcomes, sync };
}

function post(port: number, body: string, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a body within the bound completes once, in a later turn than the head', async () => {
  const { outcomes, sync } = await withServer(
    (req, outcomes, sync) => {
      let returned = false;
      receiveBody(req, 1024, 5_000, (streamed) => {
        sync.push(!returned);
        outcomes.push(streamed);
      });
      returned = true;
    },
    (port) => post(port, '{"a":1}'),
  );
  assert.equal(outcomes.length, 1);
  assert.equal(outcomes[0]?.kind, 'complete');
  assert.equal(outcomes[0]?.kind === 'complete' && outcomes[0].body.toString(), '{"a":1}');
  assert.deepEqual(sync, [false]);
});

test('a declared length over the bound and an empty body are decided at once, from the head', async () => {
  const { outcomes, sync } = await withServer(
    (req, outcomes, sync) => {
      let returned = false;
      receiveBody(req, 4, 5_000, (streamed) => {
        sync.push(!returned);
        outcomes.push(streamed);
      });
      returned = true;
    },
    async (port) => {
      await post(port, '0123456789');
      await post(port, '');
    },
  );
  assert.deepEqual(
    outcomes.map((o) => o.kind),
    ['too-large', 'complete'],
  );
  assert.deepEqual(sync, [true, true]);
});

test('a chunked body crossing the bound ends the read once, as too-large', async () => {
  const { outcomes } = await withServer(
    (req, outcomes) => receiveBody(req, 8, 5_000, (streamed) => outcomes.push(streamed)),
    (port) => post(port, 'x'.repeat(64), { 'transfer-encoding': 'chunked' }),
  );
  assert.deepEqual(
    outcomes.map((o) => o.kind),
    ['too-large'],
  );
});

test('body reads under way share one deadline timer, and a finished read leaves the queue', async () => {
  // Timers armed with the reads' limit, counted at the global `setTimeout` the module calls.
  const realSetTimeout = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay === 61_000) armed++;
    return realSetTimeout(() => callback(...args), delay);
  }) as typeof setTimeout;
  let reading = 0;
  const server = createServer((req, res) => {
    reading++;
    receiveBody(req, 1024, 61_000, (streamed) => res.end(streamed.kind));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Twenty requests whose bodies have not arrived: each read waits for its deadline.
  const requests = Array.from({ length: 20 }, () => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: { 'content-length': '2' },
    });
    req.on('error', () => {});
    req.flushHeaders();
    return req;
  });
  try {
    for (let i = 0; i < 100 && reading < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(reading, 20);
    assert.equal(armed, 1, `${armed} timers for 20 reads`);
    assert.equal(pendingBodyDeadlines(61_000), 20);
    const answers = requests.map(
      (req) =>
        new Promise<string>((resolve) =>
          req.on('response', (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            res.on('end', () => resolve(text));
          }),
        ),
    );
    for (const req of requests) req.end('{}');
    assert.deepEqual(await Promise.all(answers), Array(20).fill('complete'));
    assert.equal(pendingBodyDeadlines(61_000), 0);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    for (const req of requests) req.destroy();
    server.closeAllConnections();
    server.close();
  }
});

test('a body that does not arrive in time ends as timeout at its deadline, each read at its own', async () => {
  const outcomes: { kind: string; afterMs: number }[] = [];
  const server = createServer((req, res) => {
    const began = performance.now();
    receiveBody(req, 1024, 120, (streamed) => {
      outcomes.push({ kind: streamed.kind, afterMs: performance.now() - began });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const open = () => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: { 'content-length': '2' },
    });
    req.on('error', () => {});
    req.flushHeaders();
    return req;
  };
  const first = open();
  await new Promise((resolve) => setTimeout(resolve, 60));
  const second = open();
  try {
    for (let i = 0; i < 100 && outcomes.length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['timeout', 'timeout'],
    );
    for (const { afterMs } of outcomes)
      assert.ok(afterMs >= 115 && afterMs < 1_000, `timed out after ${afterMs} ms`);
  } finally {
    first.destroy();
    second.destroy();
    server.closeAllConnections();
    server.close();
  }
});

test("a read started by a timed-out read's callback does not hold back the deadline of a read already waiting", async () => {
  // Requests whose bodies never come: all the read needs of a request is its head and its events.
  const pending = () =>
    Object.assign(new EventEmitter(), {
      headers: { 'content-length': '5' },
      readableEnded: false,
      complete: false,
    }) as unknown as IncomingMessage;
  const limit = 300;
  const outcomes: { name: string; kind: string; afterMs: number }[] = [];
  const watch = (name: string, then?: () => void) => {
    const began = performance.now();
    receiveBody(pending(), 1024, limit, (streamed) => {
      outcomes.push({ name, kind: streamed.kind, afterMs: performance.now() - began });
      then?.();
    });
  };
  watch('first', () => watch('started by the first'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  watch('second');
  for (let i = 0; i < 100 && outcomes.length < 3; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(
    outcomes.map((o) => `${o.name}: ${o.kind}`),
    ['first: timeout', 'second: timeout', 'started by the first: timeout'],
  );
  const second = outcomes.find((o) => o.name === 'second')!;
  // Its own deadline is 300 ms; held back to the third read's, it would end after 450 ms.
  assert.ok(
    second.afterMs >= 295 && second.afterMs < 400,
    `the second read timed out after ${second.afterMs} ms`,
  );
});
