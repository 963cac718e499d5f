import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { sendRawBody } from '../../../../steps/maintenance/support/raw-body-request.ts';

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

test('sends exact bytes with their Content-Length and reads the answer', async () => {
  const { url, server } = await serve((req, res) => {
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    req.on('end', () => res.end(JSON.stringify({ received, length: req.headers['content-length'] })));
  });
  try {
    const outcome = await sendRawBody({
      url,
      method: 'POST',
      headers: {},
      body: { kind: 'bytes', bytes: Buffer.alloc(1_048_577, 0x61) },
      timeoutMs: 10_000,
    });
    assert.equal(outcome.response?.statusCode, 200);
    assert.deepEqual(JSON.parse(outcome.text), { received: 1_048_577, length: '1048577' });
  } finally {
    await close(server);
  }
});

test('MAINT-ERR-413-BODY-TOO-LARGE: stops streaming once the server has answered early', async () => {
  const { url, server } = await serve((req, res) => {
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 1_048_576 && !res.headersSent)
        res.writeHead(413).end('{"ok":false,"error":"body-too-large"}');
    });
  });
  try {
    const total = 200_000_000;
    const outcome = await sendRawBody({
      url,
      method: 'POST',
      headers: {},
      body: { kind: 'stream', totalBytes: total, chunkBytes: 65_536, declareLength: false },
      timeoutMs: 20_000,
    });
    assert.equal(outcome.response?.statusCode, 413);
    assert.equal(outcome.text, '{"ok":false,"error":"body-too-large"}');
    assert.ok(outcome.bytesSent < total, `sent all ${outcome.bytesSent} bytes`);
  } finally {
    await close(server);
  }
});

test('reports a connection closed without an answer as an error, never a rejection', async () => {
  const { url, server } = await serve((req) => req.socket.destroy());
  try {
    const outcome = await sendRawBody({
      url,
      method: 'POST',
      headers: {},
      body: { kind: 'bytes', bytes: Buffer.from('{}') },
      timeoutMs: 5_000,
    });
    assert.equal(outcome.response, undefined);
    assert.ok(outcome.error);
  } finally {
    await close(server);
  }
});
