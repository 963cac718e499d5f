import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { type TestContext, test } from 'node:test';
import { type PbxControl, sectionKeys, start } from '../../simulators/pbx/index.ts';
import { AnswerProxy, fetchRaw } from '../../src/certify/answer-proxy.ts';
import { AGENT_EXTENSION, applyAgentExtension } from '../../src/certify/extension-overlay.ts';

test('the extension is additive: no extra key starts with a key a section writes, nor the other way round', () => {
  for (const [section, lines] of Object.entries(AGENT_EXTENSION.extraLines)) {
    const known = sectionKeys(section as keyof typeof AGENT_EXTENSION.extraLines);
    for (const extra of lines.map((l) => l.split(' ')[0] ?? '')) {
      for (const key of known) {
        assert.ok(!extra.startsWith(key) && !key.startsWith(extra), `${section}: ${extra} vs ${key}`);
      }
    }
  }
});

test('the simulator takes the extension through its state and renders it; the plain lines stay as they were', async (t) => {
  const pbx = await start({
    scenario: 'healthy',
    host: '127.0.0.1',
    monitoringPort: 0,
    clock: { mode: 'frozen' },
  });
  t.after(() => pbx.close());
  await pbx.control.patchState({ os: { linuxSectionsSource: 'synthetic' } });
  const before = await fetchRaw(endpointOf(pbx.urls.monitoring));
  await applyAgentExtension(pbx.control);
  await pbx.control.invalidateSnapshot();
  const after = await fetchRaw(endpointOf(pbx.urls.monitoring));
  assert.ok(before !== null && after !== null);
  assert.match(after, /^<<<pbx_backups_offsite>>>\noffsite_targets 0\noffsite_last_sync -1$/m);
  assert.match(after, /^zz_extension_flag enabled$/m);
  const withoutExtension = after
    .split('\n')
    .filter(
      (line) =>
        !/^(zz_|offsite_|future_feature_)|^<<<(pbx_backups_offsite|pbx_future_feature)>>>$/.test(line),
    )
    .join('\n');
  assert.equal(withoutExtension, before);
});

test('a simulator that refuses the extension makes the set-up fail (a harness error, not a verdict)', async () => {
  const refusing = {
    patchState: async () => {
      throw new Error('unknown field agentExtensions');
    },
  };
  await assert.rejects(applyAgentExtension(refusing as unknown as PbxControl), /agentExtensions/);
});

function endpointOf(url: string | null): { host: string; port: number } {
  if (url === null) throw new Error('the data endpoint is not listening');
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

async function upstream(
  t: TestContext,
  onConnection: (socket: import('node:net').Socket) => void,
): Promise<number> {
  const server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return address.port;
}

async function proxyTo(t: TestContext, port: number, options: { delayMs?: number } = {}) {
  const proxy = new AnswerProxy({ upstream: { host: '127.0.0.1', port }, host: '127.0.0.1', ...options });
  const address = await proxy.start();
  t.after(() => proxy.close());
  return address;
}

test('the proxy relays the answer, held back', async (t) => {
  const port = await upstream(t, (s) => s.end('<<<pbx>>>\npbx_version 1\n'));
  assert.equal(await fetchRaw(await proxyTo(t, port, { delayMs: 50 })), '<<<pbx>>>\npbx_version 1\n');
});

test('the proxy relays ERROR lines and closes without a byte where the upstream did', async (t) => {
  const error = await upstream(t, (s) => s.end('ERROR: broken\n'));
  assert.equal(await fetchRaw(await proxyTo(t, error)), 'ERROR: broken\n');
  const silent = await upstream(t, (s) => s.destroy());
  assert.equal(await fetchRaw(await proxyTo(t, silent)), '');
});
