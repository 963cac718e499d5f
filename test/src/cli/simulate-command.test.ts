import assert from 'node:assert/strict';
import { connect, createServer, type Server } from 'node:net';
import type { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { captureIo } from './capture-io.ts';

function firstLine(stream: PassThrough): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) {
        stream.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    stream.on('data', onData);
  });
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('simulate --json prints a target description first, serves until stopped, then closes', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const line = firstLine(io.stdout as PassThrough);
  const exit = run(['simulate', '--port', '0', '--json', '--clock', 'frozen'], io);
  const target = JSON.parse(await line) as {
    name: string;
    pbx: {
      webUrl: string;
      controlUrl: string;
      monitoring: { host: string; port: number };
      xmlrpc: Record<string, string>;
      listedClientAddress: string;
      unlistedClientAddress: string;
    };
  };
  assert.equal(target.name, 'simulator');
  assert.deepEqual(target.pbx.xmlrpc, {
    path: '/xml-rpc',
    instanceName: 'Monitoring',
    authParam: 'de.vendor.pbx.auth',
    login: '123',
    password: 'Pass123',
  });
  assert.equal(target.pbx.listedClientAddress, '127.0.0.1');
  assert.equal(target.pbx.unlistedClientAddress, '127.0.0.2');
  assert.match(target.pbx.webUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(target.pbx.controlUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(target.pbx.monitoring.port > 0);

  const xmlrpc = await fetch(`${target.pbx.webUrl}/xml-rpc`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: '<?xml version="1.0"?><methodCall><methodName>Monitoring.isActiveDirectoryEnabled</methodName><params/></methodCall>',
  });
  assert.equal(xmlrpc.status, 200);
  assert.match(await xmlrpc.text(), /activeDirectoryEnabled/);
  assert.equal(await canConnect(target.pbx.monitoring.host, target.pbx.monitoring.port), true);

  controller.abort();
  assert.equal(await exit, 0);
  assert.match(io.err(), /data endpoint: {3}tcp:\/\/127\.0\.0\.1:\d+/);
  assert.equal(await canConnect(target.pbx.monitoring.host, target.pbx.monitoring.port), false);
  const webPort = Number(new URL(target.pbx.webUrl).port);
  assert.equal(await canConnect('127.0.0.1', webPort), false);
});

test('simulate with a busy web port fails with one line and exit 1', async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    const address = blocker.address();
    assert.ok(address !== null && typeof address === 'object');
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--port', '0', '--web-port', String(address.port)], io), 1);
    assert.equal(io.err(), `pbx-conformance: port ${address.port} on 127.0.0.1 is already in use\n`);
    assert.equal(io.out(), '');
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test('simulate with an unknown scenario is a usage error naming the known ones', async () => {
  const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
  assert.equal(await run(['simulate', '--scenario', 'no-such-scenario'], io), 2);
  assert.match(io.err(), /^pbx-conformance: unknown scenario 'no-such-scenario' \(known: healthy, /);
});

test('simulate loads a scenario file given by path', async () => {
  const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
  const file = new URL('../../../simulators/pbx/scenarios/ram-warning.json', import.meta.url).pathname;
  assert.equal(await run(['simulate', '--port', '0', '--scenario', file], io), 0);
  assert.match(io.out(), /PBX simulator running \(scenario .*ram-warning\.json, clock running\)/);
  assert.match(io.out(), /stopping the simulator/);
});
