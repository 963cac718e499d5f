import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Client } from 'undici';
import type { ApiResponse } from '../../../../simulators/fleet-controller/api/api-messages.ts';
import { toNodeHandler } from '../../../../simulators/fleet-controller/api/http-adapter.ts';

// Issue 31 §4: a site list kept as blocks is written block after block (one writev), with the
// Content-Length of their sum and no chunked coding, on a connection that stays usable.
test('an answer kept as blocks is sent as their bytes one after the other, under its Content-Length', async () => {
  const chunks = ['[{"id":"a"}', ',{"id":"ä"}', ',{"id":"c"}', ']'].map((t) => Buffer.from(t));
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  const answer: ApiResponse = {
    status: 200,
    headers: { 'content-length': String(length) },
    rawHeaders: ['content-type', 'application/json; charset=utf-8', 'content-length', String(length)],
    chunks,
  };
  const server = createServer(toNodeHandler(() => answer));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    for (let round = 0; round < 2; round++) {
      const res = await client.request({ method: 'GET', path: '/api/v1/sites' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], String(length));
      assert.equal(res.headers['transfer-encoding'], undefined);
      assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), Buffer.concat(chunks));
    }
  } finally {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
