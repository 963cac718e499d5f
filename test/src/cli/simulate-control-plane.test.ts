import assert from 'node:assert/strict';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { exposureWarnings } from '../../../src/cli/simulate-command.ts';
import { strictValidator } from '../../../src/core/strict-schema.ts';
import { TARGET_SCHEMA_PATH, type TargetFile } from '../../../src/core/target-file.ts';
import { openRemoteTarget } from '../../../steps/support/remote-target.ts';
import { captureIo } from './capture-io.ts';

// Issue 12, defect 7: --host moved the control planes too, with no warning and a banner that
// showed 127.0.0.1 whatever was bound.

async function untilBanner(io: ReturnType<typeof captureIo>): Promise<void> {
  for (let i = 0; i < 3000 && !/Press Ctrl-C/.test(io.out() + io.err()); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

test('simulate: --host moves the faces, not the control plane; the banner shows the bound addresses', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const exit = run(['simulate', '--host', '127.0.0.3', '--port', '0', '--clock', 'frozen', '--no-fleet'], io);
  try {
    await untilBanner(io);
    const banner = io.out();
    assert.match(banner, /web \(base_url\): +http:\/\/127\.0\.0\.3:\d+/);
    assert.match(banner, /control plane: +http:\/\/127\.0\.0\.1:\d+/);
    assert.match(
      banner,
      /bound addresses\n {2}PBX web 127\.0\.0\.3:\d+, data endpoint 127\.0\.0\.3:\d+, control plane 127\.0\.0\.1:\d+/,
    );
    assert.doesNotMatch(banner, /warning: --host/);
  } finally {
    controller.abort();
    assert.equal(await exit, 0);
  }
});

test('simulate: --control-host with --control-token requires the token on every control request', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const token = 'control-token-from-the-command-line';
  const exit = run(
    [
      'simulate',
      '--control-host',
      '127.0.0.4',
      '--control-token',
      token,
      '--port',
      '0',
      '--clock',
      'frozen',
      '--no-fleet',
    ],
    io,
  );
  try {
    await untilBanner(io);
    const url = /control plane: +(http:\/\/127\.0\.0\.4:\d+)/.exec(io.out())?.[1];
    assert.ok(url, io.out());
    assert.equal((await fetch(`${url}/state`)).status, 401);
    assert.equal(
      (await fetch(`${url}/state`, { headers: { authorization: `Bearer ${token}` } })).status,
      200,
    );
    assert.ok(!(io.out() + io.err()).includes(token), 'a given token is never printed');
  } finally {
    controller.abort();
    assert.equal(await exit, 0);
  }
});

test('simulate: a host beyond loopback is warned about, face by face', () => {
  assert.deepEqual(exposureWarnings({ host: '127.0.0.1' }, true), []);
  const [faces, ...rest] = exposureWarnings({ host: '0.0.0.0' }, true);
  assert.match(
    faces ?? '',
    /--host 0\.0\.0\.0 exposes the data endpoint, the web server .*fleet REST and MCP.*beyond loopback; the control planes stay on 127\.0\.0\.1/,
  );
  assert.deepEqual(rest, []);
  const both = exposureWarnings({ host: '0.0.0.0', controlHost: '::', controlToken: 'x' }, false);
  assert.equal(both.length, 2);
  assert.match(
    both[1] ?? '',
    /--control-host :: exposes the control planes beyond loopback; every request needs the control token/,
  );
  assert.ok(!both.join('\n').includes('fleet'));
});

test('simulate --json: the target description carries the control token, and a remote target uses it', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const token = 'control-token-for-the-target-file';
  const exit = run(
    ['simulate', '--json', '--control-token', token, '--port', '0', '--clock', 'frozen', '--no-fleet'],
    io,
  );
  try {
    await untilBanner(io);
    const line = io.out().split('\n')[0] ?? '';
    const description = JSON.parse(line) as TargetFile;
    assert.equal(description.pbx.controlToken, token);
    assert.deepEqual(strictValidator(TARGET_SCHEMA_PATH).validate(description), { ok: true });
    assert.ok(!io.err().includes(token), 'the banner never shows the token');
    const opened = openRemoteTarget(description);
    const control = opened.target.pbx.control;
    assert.ok(control);
    await control.reset();
    assert.equal(typeof (await control.now()).now, 'number');
    const withoutToken = openRemoteTarget({
      ...description,
      pbx: { ...description.pbx, controlToken: undefined },
    });
    await assert.rejects(() => withoutToken.target.pbx.control?.reset() ?? Promise.resolve(), /401/);
  } finally {
    controller.abort();
    assert.equal(await exit, 0);
  }
});
