import assert from 'node:assert/strict';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import {
  type ControllerSettings,
  TcpControllerLink,
} from '../../../../simulators/pbx/events/controller-link.ts';
import { MAX_OPENING, MUX_HELLO_LINE, MuxDialer } from '../../../../simulators/shared/wire/ingest-mux.ts';
import {
  type ControllerMessage,
  encodeLine,
  type PbxMessage,
  type RefusalReason,
} from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { FAST_SCRYPT, T0 } from '../../fleet-controller/fleet-test-kit.ts';

const SITES = ['site-hamburg', 'site-kiel', 'site-bremen'] as const;
const FAST = { retryMinMs: 5, retryMaxMs: 20, refusedRetryMs: 20, helloTimeoutMs: 2_000 };

async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const event = (seq: number, subject: string, severity: 'ERROR' | 'WARNING' = 'ERROR'): PbxMessage => ({
  type: 'event',
  seq,
  suppressed: seq % 3,
  event: { module: 'Backup', subject, severity, at: T0 + seq * 1_000 },
});

/**
 * The same event script through one path: each PBX on its own TCP connection, or every PBX as a
 * channel of one multiplexed connection (a shard's). Returns the controller's ledger: each site's
 * items, the ingest counters, the last sequence number of each stream, the live connections, and
 * what each PBX was told (welcome's last sequence numbers, refusals).
 */
async function runScript(multiplexed: boolean) {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  const dialer = multiplexed ? new MuxDialer(fleet.urls.ingest) : undefined;
  const links: TcpControllerLink[] = [];
  try {
    for (const siteId of [...SITES, 'site-muenchen'])
      await fleet.control.registerPbx({ siteId, key: `key-of-${siteId}` });
    // What the PBXs were told, once each (a refused link retries and is refused again meanwhile).
    const told = new Set<string>();
    const acks = new Map<string, number>();
    const open = (siteId: string, key: string) => {
      const settings: ControllerSettings = { ingest: fleet.urls.ingest, siteId, key };
      if (dialer) settings.dial = dialer.dial;
      const link = new TcpControllerLink(settings, `stream-${siteId}`, FAST);
      link.on('up', (lastSeq) => told.add(`${siteId} up ${lastSeq}`));
      link.on('refused', (reason: RefusalReason) => told.add(`${siteId} refused ${reason}`));
      link.on('ack', () => acks.set(siteId, (acks.get(siteId) ?? 0) + 1));
      links.push(link);
      return link;
    };
    const [hamburg, kiel, bremen] = SITES.map((siteId) => open(siteId, `key-of-${siteId}`)) as [
      TcpControllerLink,
      TcpControllerLink,
      TcpControllerLink,
    ];
    // A PBX with a wrong key: its own session is refused; the others go on.
    const intruder = open('site-muenchen', 'not-the-key');
    await until('every link up', () => [hamburg, kiel, bremen].every((l) => l.state === 'up'));
    await until('the wrong key refused', () => told.has('site-muenchen refused bad-key'));
    await intruder.close();

    for (const [i, link] of [hamburg, kiel, bremen].entries()) {
      link.send(event(1, 'Sicherung fehlgeschlagen'));
      link.send(event(2, 'Sicherung fehlgeschlagen'));
      link.send(event(2, 'Sicherung fehlgeschlagen')); // re-sent: acknowledged, counted once
      link.send(event(3, `Trunk ${i} nicht registriert`, 'WARNING'));
      link.send({ type: 'event', seq: 4, suppressed: 0, event: { module: '' } } as unknown as PbxMessage);
      link.send({
        type: 'inventory',
        inventory: {
          at: T0,
          pbxVersion: `7.${i}`,
          updateKind: 'none',
          sipProviders: [],
          backups: [],
          modules: [],
        },
      });
    }
    await until('every ack', () => SITES.every((siteId) => acks.get(siteId) === 5));

    // A cut ends Kiel's session alone; after the restore it comes back with its last sequence.
    await fleet.control.cutLink({ siteId: 'site-kiel' });
    await until('Kiel refused', () => told.has('site-kiel refused link-cut'));
    assert.equal(hamburg.state, 'up', 'a cut of one site leaves the others up');
    await fleet.control.restoreLink({ siteId: 'site-kiel' });
    kiel.reconnectNow();
    await until('Kiel up again', () => told.has('site-kiel up 3'));
    kiel.send(event(5, 'Sicherung fehlgeschlagen'));
    await until('Kiel ack', () => acks.get('site-kiel') === 6);

    return {
      items: await Promise.all(
        SITES.map(async (siteId) =>
          (await fleet.control.items({ siteId }))
            .map(({ id: _id, ...item }) => item)
            .sort((a, b) => a.subject.localeCompare(b.subject)),
        ),
      ),
      stats: await fleet.control.stats(),
      connections: await Promise.all(
        SITES.map(async (siteId) => (await fleet.control.linkStatus({ siteId })).connected),
      ),
      told: [...told].sort(),
      tcpConnections: dialer?.connectionsOpened,
    };
  } finally {
    await Promise.all(links.map((link) => link.close()));
    dialer?.close();
    await fleet.close();
  }
}

test('EVENT-UNSPEC-TRANSPORT: the same event script yields the same ledger over one connection per PBX and over one multiplexed connection', async () => {
  const single = await runScript(false);
  const { tcpConnections, ...multiplexed } = await runScript(true);
  delete single.tcpConnections;
  // The script did something worth comparing.
  assert.equal(single.items.flat().length, 6);
  assert.ok(
    single.stats.accepted >= 10 && single.stats.duplicates >= 3 && single.stats.invalid >= 3,
    JSON.stringify(single.stats),
  );
  assert.deepEqual(single.connections, [1, 1, 1]);
  assert.deepEqual(multiplexed, single);
  assert.equal(tcpConnections, 1, 'every session of the multiplexed run shared one TCP connection');
});

test('a multiplexed connection: each channel is a session of its own (a wrong key refuses and closes that channel alone), a closed channel stays closed, and a malformed frame ends the connection with its sessions', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  await fleet.control.registerPbx({ siteId: 'site-hamburg', key: 'the-key' });
  const connected = async (siteId: string) => (await fleet.control.linkStatus({ siteId })).connected;
  const url = new URL(fleet.urls.ingest);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  t.after(() => socket.destroy());
  let text = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  const hello = (key: string) =>
    JSON.stringify({ type: 'hello', version: 1, siteId: 'site-hamburg', key, stream: 's' });
  socket.write(`${MUX_HELLO_LINE}\n7\t${hello('the-key')}\n9\t${hello('wrong')}\n`);
  await until('both answers', () => text.split('\n').length >= 4);
  const frames = text
    .split('\n')
    .filter((frame) => frame !== '')
    .sort();
  assert.deepEqual(frames, [
    '7\t{"type":"welcome","lastSeq":0}',
    '9\t',
    '9\t{"type":"refused","reason":"bad-key"}',
  ]);
  assert.equal(await connected('site-hamburg'), 1);
  // A frame for a channel already closed (in flight when it closed) opens no session again.
  const before = text;
  socket.write(`9\t${hello('the-key')}\n11\t${hello('the-key')}\n`);
  await until('the new channel welcomed', () => text.includes('11\t{"type":"welcome"'));
  assert.equal(text.slice(before.length), '11\t{"type":"welcome","lastSeq":0}\n');
  assert.equal(await connected('site-hamburg'), 2);
  socket.write('not a frame\n');
  await until('the connection closed', () => closed);
  await until('the session gone with it', async () => (await connected('site-hamburg')) === 0);
});

test('EVENT-UNSPEC-TRANSPORT: an ack line is the bytes JSON.stringify gives for it', () => {
  fc.assert(
    fc.property(fc.maxSafeNat(), (seq) => {
      const ack: ControllerMessage = { type: 'ack', seq };
      assert.equal(encodeLine(ack), `${JSON.stringify(ack)}\n`);
    }),
  );
});

test('a shard opens at most MAX_OPENING sessions awaiting their first answer at once; each answer lets the next one open', async (t) => {
  const frames: string[] = [];
  let carrier: Socket | undefined;
  const server = createServer((socket) => {
    carrier = socket;
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      frames.push(...lines);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        carrier?.destroy();
      }),
  );
  const dialer = new MuxDialer(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.after(() => dialer.close());
  const timedOut: number[] = [];
  for (let i = 1; i <= MAX_OPENING + 50; i++) {
    const channel = dialer.dial();
    channel.setTimeout(1_000, () => timedOut.push(i));
    channel.on('connect', () => channel.write(`hello ${i}\n`));
    channel.on('error', () => {});
  }
  const hellos = () => frames.filter((frame) => frame.includes('\thello ')).length;
  await until('the first wave', () => hellos() === MAX_OPENING);
  assert.equal(frames[0], MUX_HELLO_LINE);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(hellos(), MAX_OPENING, 'no more hellos until one is answered');
  carrier!.write('1\t{"type":"welcome","lastSeq":0}\n2\t\n');
  await until('two more opened', () => hellos() === MAX_OPENING + 2);
  // Waiting for a turn is not idle time: only the opened sessions' timers have run.
  await until('the opened ones timed out', () => timedOut.length >= MAX_OPENING);
  assert.ok(
    timedOut.every((i) => i <= MAX_OPENING + 2),
    `a session timed out before it opened: ${timedOut.filter((i) => i > MAX_OPENING + 2)}`,
  );
});

test('EVENT-UNSPEC-TRANSPORT: a line past the 256 KiB bound closes its channel alone, as it would its own connection', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  await fleet.control.registerPbx({ siteId: 'site-hamburg', key: 'the-key' });
  const url = new URL(fleet.urls.ingest);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  t.after(() => socket.destroy());
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  socket.on('error', () => {});
  const hello = JSON.stringify({
    type: 'hello',
    version: 1,
    siteId: 'site-hamburg',
    key: 'the-key',
    stream: 's',
  });
  socket.write(`${MUX_HELLO_LINE}\n3\t${hello}\n5\t${hello}\n`);
  await until('both welcomed', () => text.split('\n').length >= 3);
  // Within the frame's bound (which leaves room for the channel number), past the line's.
  const long = `{"type":"inventory","pad":"${'x'.repeat(256 * 1024)}"}`.slice(0, 256 * 1024 + 8);
  socket.write(`3\t${long}\n5\t${JSON.stringify(event(1, 'still here'))}\n`);
  await until('the ack on the other channel', () => text.includes('5\t{"type":"ack","seq":1}'));
  await until('the long line closed its channel', () => text.includes('3\t\n'));
  assert.equal((await fleet.control.linkStatus({ siteId: 'site-hamburg' })).connected, 1);
});
