import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tcpProbe } from '../../../src/runner/tcp-probe.ts';
import { closedPort, listeningPort } from './loopback-ports.ts';

test('a listening port is reachable; a closed one is not, with the reason', async () => {
  const open = await listeningPort();
  try {
    assert.deepEqual(await tcpProbe('127.0.0.1', open.port, 3_000), { reachable: true });
  } finally {
    await open.close();
  }
  const closed = await closedPort();
  assert.deepEqual(await tcpProbe('127.0.0.1', closed, 3_000), {
    reachable: false,
    reason: 'ECONNREFUSED',
  });
});
