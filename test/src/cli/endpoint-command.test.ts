import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { request } from 'undici';
import { httpEndpointControl } from '../../../simulators/customer-endpoint/index.ts';
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

function canConnect(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('endpoint --json prints its URLs first, records what a client sends until stopped, then closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'endpoint-command-'));
  try {
    writeFileSync(
      join(dir, 'answers.json'),
      JSON.stringify({ fallback: { body: '{"name":"Anna Schmidt"}' } }),
    );
    const controller = new AbortController();
    const io = captureIo(dir, { signal: controller.signal });
    const line = firstLine(io.stdout as PassThrough);
    const exit = run(['endpoint', '--json', '--config', 'answers.json'], io);
    const description = JSON.parse(await line) as {
      base: string;
      control: string;
      certificate: string | null;
    };
    assert.match(description.base, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(description.control, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(description.certificate, null);

    const answer = await request(`${description.base}/lookup?tel=+49301234567`, {
      headers: { 'X-Probe': 'yes' },
    });
    assert.equal(await answer.body.text(), '{"name":"Anna Schmidt"}');
    const control = httpEndpointControl(description.control);
    const [record] = await control.getRequests();
    assert.equal(record?.target, '/lookup?tel=+49301234567');
    assert.ok(record?.headers.some(([name, value]) => name === 'X-Probe' && value === 'yes'));

    controller.abort();
    assert.equal(await exit, 0);
    assert.match(io.err(), /control plane: +http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await canConnect(description.base), false);
    assert.equal(await canConnect(description.control), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('endpoint --tls serves HTTPS and prints the self-signed certificate', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const line = firstLine(io.stdout as PassThrough);
  const exit = run(['endpoint', '--json', '--tls', '--cert-host', 'pbx-test.invalid'], io);
  const description = JSON.parse(await line) as { base: string; certificate: string | null };
  assert.match(description.base, /^https:\/\//);
  assert.match(description.certificate ?? '', /-----BEGIN CERTIFICATE-----/);
  controller.abort();
  assert.equal(await exit, 0);
  assert.match(io.err(), /BEGIN CERTIFICATE/);
});

test('an invalid configuration file is a usage error with one line, and nothing is started', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'endpoint-command-'));
  try {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ fallback: { status: 99 } }));
    const io = captureIo(dir);
    assert.equal(await run(['endpoint', '--config', 'bad.json'], io), 2);
    assert.match(
      io.err(),
      /^pbx-conformance: the configuration .*bad\.json is not valid: config\/fallback\/status must be >= 200\n$/,
    );
    const missing = captureIo(dir);
    assert.equal(await run(['endpoint', '--config', 'none.json'], missing), 2);
    assert.match(missing.err(), /cannot read the configuration .*none\.json: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a busy port is a harness error with exit code 1', async (t) => {
  const controller = new AbortController();
  const first = captureIo(process.cwd(), { signal: controller.signal });
  const line = firstLine(first.stdout as PassThrough);
  const exit = run(['endpoint', '--json'], first);
  t.after(async () => {
    controller.abort();
    await exit;
  });
  const { base } = JSON.parse(await line) as { base: string };
  const second = captureIo(process.cwd());
  assert.equal(await run(['endpoint', '--port', new URL(base).port], second), 2);
  assert.match(second.err(), /already in use/);
});

// Issue 20, item 16: the refusal named `--control-token`, which `endpoint` does not have.
test('endpoint --control-host beyond loopback is exit 2 with a reason that names only its own options', async () => {
  for (const host of ['0.0.0.0', '192.0.2.1']) {
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['endpoint', '--control-host', host], io), 2);
    assert.match(
      io.err(),
      new RegExp(`^pbx-conformance: --control-host ${host} is not a loopback address: .*stays on 127\\.x`),
    );
    assert.doesNotMatch(io.err(), /--control-token/);
    assert.equal(io.err().trim().split('\n').length, 1);
    assert.equal(io.out(), '');
  }
});
