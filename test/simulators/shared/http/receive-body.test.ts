import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { receiveBody, type StreamedBody } from '../../../../simulators/shared/http/read-body.ts';

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
