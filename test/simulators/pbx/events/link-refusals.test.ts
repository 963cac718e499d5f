import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import {
  type ControllerSettings,
  TcpControllerLink,
} from '../../../../simulators/pbx/events/controller-link.ts';
import { MuxDialer } from '../../../../simulators/shared/wire/ingest-mux.ts';
import type { RefusalReason } from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { FAST_SCRYPT, T0 } from '../../fleet-controller/fleet-test-kit.ts';

const FAST = {
  retryMinMs: 5,
  retryMaxMs: 20,
  refusedRetryMs: 20,
  refusedRetryMaxMs: 160,
  helloTimeoutMs: 2_000,
};
const KEY = 'the-right-key-of-every-site';

async function until(what: string, done: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Both ways a PBX links: its own TCP connection, or a channel of a shard's multiplexed one. */
for (const multiplexed of [false, true]) {
  const how = multiplexed ? 'over one multiplexed connection' : 'each on its own connection';
  test(`issue 29 item 5: links with a wrong key ${how}: each PBX hears bad-key through its settings, the controller logs one line for the peer with the reason and without any key`, async (t) => {
    const warnings: string[] = [];
    const fleet = await start({
      scryptCost: FAST_SCRYPT,
      clock: { start: T0 },
      warn: (line) => warnings.push(line),
    });
    t.after(() => fleet.close());
    const sites = ['site-hamburg', 'site-kiel', 'site-bremen'];
    for (const siteId of sites) await fleet.control.registerPbx({ siteId, key: KEY });
    const dialer = multiplexed ? new MuxDialer(fleet.urls.ingest) : undefined;
    t.after(() => dialer?.close());
    const heard: string[] = [];
    const links = sites.map((siteId) => {
      const settings: ControllerSettings = {
        ingest: fleet.urls.ingest,
        siteId,
        key: `wrong-key-of-${siteId}`,
        onRefused: (reason) => heard.push(`${siteId} ${reason}`),
      };
      if (dialer) settings.dial = dialer.dial;
      return new TcpControllerLink(settings, `stream-${siteId}`, FAST);
    });
    t.after(() => Promise.all(links.map((link) => link.close())));
    // Two refusals of each link: the second comes after the refused back-off.
    await until('every link refused twice', () => heard.length >= 6);
    assert.deepEqual(new Set(heard), new Set(sites.map((siteId) => `${siteId} bad-key`)));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0]!,
      /^ingest: refused a PBX link from 127\.0\.0\.1 for site "site-\w+": bad-key, /,
    );
    for (const siteId of sites) assert.ok(!warnings[0]!.includes(`wrong-key-of-${siteId}`), 'never a key');
    assert.ok(!warnings[0]!.includes(KEY), 'never a key');
    // Another reason from the same peer is a line of its own, once.
    const unknown = new TcpControllerLink(
      {
        ingest: fleet.urls.ingest,
        siteId: 'site-nowhere',
        key: KEY,
        ...(dialer ? { dial: dialer.dial } : {}),
      },
      'stream-nowhere',
      FAST,
    );
    t.after(() => unknown.close());
    let refusedUnknown = 0;
    unknown.on('refused', () => refusedUnknown++);
    await until('the unknown site refused twice', () => refusedUnknown >= 2);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[1]!, /from 127\.0\.0\.1 for site "site-nowhere": unknown-site, /);
  });
}

test('issue 29 item 5: a refused link retries with a back-off that doubles up to its bound, then links once welcomed', async (t) => {
  const hellos: number[] = [];
  let welcome = false;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      hellos.push(Date.now());
      if (welcome) socket.write('{"type":"welcome","lastSeq":0}\n');
      else socket.end('{"type":"refused","reason":"unknown-site"}\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const reasons: RefusalReason[] = [];
  const link = new TcpControllerLink(
    {
      ingest: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`,
      siteId: 'site-kiel',
      key: KEY,
      onRefused: (reason) => reasons.push(reason),
    },
    'stream',
    FAST,
  );
  t.after(() => link.close());
  await until('seven hellos', () => hellos.length >= 7, 10_000);
  const gaps = hellos.slice(1).map((at, i) => at - hellos[i]!);
  // 20, 40, 80, 160, 160, 160 ms: each gap at least the back-off, and the later ones far apart.
  const floors = [20, 40, 80, 160, 160, 160];
  for (const [i, gap] of gaps.entries())
    assert.ok(gap >= floors[i]! - 2, `gap ${i + 1} was ${gap} ms: ${gaps.join(', ')}`);
  assert.ok(reasons.length >= 6 && reasons.every((reason) => reason === 'unknown-site'));
  welcome = true;
  await until('up', () => link.state === 'up', 5_000);
});
