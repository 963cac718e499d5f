import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { ControlPlaneError } from '../../../../simulators/pbx/control/control-plane-error.ts';
import { HttpPbxControl } from '../../../../simulators/pbx/control/http-control-client.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a server that never answers is given up after the real-time timeout', async (t) => {
  const server = createServer(() => {
    // Never answers.
  });
  t.after(() => closeServer(server));
  const control = new HttpPbxControl(await listen(server), 200);
  await assert.rejects(
    control.now(),
    (error: Error) => error instanceof ControlPlaneError && error.status === 0,
  );
});

test('a closed port is reported as unreachable', async () => {
  const server = createServer();
  const url = await listen(server);
  await closeServer(server);
  const control = new HttpPbxControl(url);
  await assert.rejects(control.reset(), (error: Error) => {
    return error instanceof ControlPlaneError && error.code === 'unreachable' && error.message.includes(url);
  });
});

test('an error answer that is not the JSON error body still carries its text', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway\nupstream down');
  });
  t.after(() => closeServer(server));
  const control = new HttpPbxControl(await listen(server));
  await assert.rejects(control.warnings(), (error: Error) => {
    return (
      error instanceof ControlPlaneError &&
      error.status === 502 &&
      error.message.endsWith('Bad gateway upstream down')
    );
  });
});

test('a base URL with a path prefix and a trailing slash is joined correctly', async (t) => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"now":5}');
  });
  t.after(() => closeServer(server));
  const control = new HttpPbxControl(`${await listen(server)}/control/`);
  assert.equal(await control.now(), 5);
  await control.moduleLog(12);
  await control.clearFault('render-error');
  assert.deepEqual(paths, [
    'GET /control/clock',
    'GET /control/module-log?since=12',
    'DELETE /control/faults/render-error',
  ]);
});
