import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startWebServer } from '../../../../simulators/pbx/web/web-server.ts';
import { startControlServer } from '../../../../simulators/shared/http/control-server.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';
import { HEADERS_TIMEOUT_MS } from '../../../../simulators/shared/http/slow-clients.ts';

/**
 * Issue 20, item 17: the HTTP faces answered a slow request head with 408 only after 20-21 s
 * (node checks its timeouts every 30 s by default), while docs/simulator.md says 10 s. The bound
 * below is the documented 10 s plus the 1 s check interval plus slack for a busy machine; with
 * node's default interval the first check of a fresh server comes at 30 s.
 */
function slowHead(url: string): Promise<{ status: string; ms: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let text = '';
    const socket = connect({ host: hostname, port: Number(port) }, () =>
      socket.write('GET / HTTP/1.1\r\nHost: pbx\r\n'),
    );
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${HEADERS_TIMEOUT_MS + 5000} ms`));
    }, HEADERS_TIMEOUT_MS + 5000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ status: text.split('\r\n')[0] ?? '', ms: performance.now() - started });
    });
  });
}

test('a request head not complete after 10 s is answered 408 within about a second of it, on every HTTP face', async () => {
  assert.equal(HEADERS_TIMEOUT_MS, 10_000);
  const web = await startWebServer({ host: '127.0.0.1', port: 0, routes: [] });
  const control = await startControlServer([], { host: '127.0.0.1', port: 0 });
  try {
    const answers = await Promise.all([slowHead(web.url), slowHead(control.url)]);
    for (const { status, ms } of answers) {
      assert.equal(status, 'HTTP/1.1 408 Request Timeout');
      assert.ok(ms >= HEADERS_TIMEOUT_MS - 100, `408 after ${Math.round(ms)} ms, before the timeout`);
    }
  } finally {
    await closeServer(web.server);
    await control.close();
  }
});
