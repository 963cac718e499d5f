import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startBearerRelay } from '../../../../steps/fleet/support/bearer-relay.ts';

test('the relay adds the Bearer token and passes method, body and answer through unchanged', async () => {
  const seen: { method?: string; auth?: string; path?: string; body?: string } = {};
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Object.assign(seen, {
        method: req.method,
        auth: req.headers.authorization,
        path: req.url,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  const relay = await startBearerRelay(`http://127.0.0.1:${port}/tenant/mcp`, 'geheim-123');
  try {
    assert.match(relay.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const res = await fetch(relay.url, {
      method: 'POST',
      body: '{"jsonrpc":"2.0"}',
      headers: { authorization: 'Bearer falsch' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-upstream'), 'yes');
    assert.equal(await res.text(), '{"ok":true}');
    assert.deepEqual(seen, {
      method: 'POST',
      auth: 'Bearer geheim-123',
      path: '/tenant/mcp',
      body: '{"jsonrpc":"2.0"}',
    });
  } finally {
    await relay.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});

test('the relay answers 502 when the MCP endpoint cannot be reached', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const relay = await startBearerRelay(`http://127.0.0.1:${port}/mcp`, 't');
  try {
    assert.equal((await fetch(relay.url, { method: 'POST', body: '{}' })).status, 502);
  } finally {
    await relay.close();
  }
});
