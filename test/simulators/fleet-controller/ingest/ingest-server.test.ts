import assert from 'node:assert/strict';
import { connect, Socket } from 'node:net';
import { test } from 'node:test';
import { partsOf } from '../../../../simulators/fleet-controller/controller-parts.ts';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { startIngestServer } from '../../../../simulators/fleet-controller/ingest/ingest-server.ts';
import {
  type FleetJournal,
  MEMORY_JOURNAL,
} from '../../../../simulators/fleet-controller/model/fleet-journal.ts';
import { FleetState } from '../../../../simulators/fleet-controller/model/fleet-state.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import {
  LineReader,
  LineTooLongError,
  MAX_LINE_BYTES,
} from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { FAST_SCRYPT, sitesOnly, T0 } from '../fleet-test-kit.ts';

/** A raw protocol client: writes lines, collects the parsed answers. */
async function rawClient(ingest: string) {
  const url = new URL(ingest);
  const socket: Socket = connect({ host: url.hostname, port: Number(url.port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Record<string, unknown>[] = [];
  const reader = new LineReader();
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    for (const line of reader.push(chunk)) received.push(JSON.parse(line));
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  const waitFor = async (n: number) => {
    const deadline = Date.now() + 3_000;
    while (received.length < n && !closed) {
      if (Date.now() > deadline) throw new Error(`waited for ${n} lines, got ${JSON.stringify(received)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const waitClosed = async () => {
    const deadline = Date.now() + 3_000;
    while (!closed) {
      if (Date.now() > deadline) throw new Error('connection not closed');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return {
    socket,
    received,
    send: (v: unknown) => socket.write(`${JSON.stringify(v)}\n`),
    waitFor,
    waitClosed,
    close: () => socket.destroy(),
  };
}

async function controller(t: { after(fn: () => Promise<void>): void }) {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const reg = await fleet.control.registerPbx({ siteId: 'site-hamburg', key: 'the-key' });
  return { fleet, reg };
}

const hello = (extra: Record<string, unknown> = {}) => ({
  type: 'hello',
  version: 1,
  siteId: 'site-hamburg',
  key: 'the-key',
  stream: 's1',
  ...extra,
});
const ev = (seq: number, extra: Record<string, unknown> = {}) => ({
  type: 'event',
  seq,
  suppressed: 0,
  event: { module: 'Backup', subject: 'voll', severity: 'ERROR', at: T0 + seq },
  ...extra,
});

test('EVENT-UNSPEC-TRANSPORT: hello is answered welcome, events are acknowledged and a re-sent sequence number counts once', async (t) => {
  const { fleet, reg } = await controller(t);
  const c = await rawClient(reg.ingest);
  t.after(async () => c.close());
  c.send(hello());
  await c.waitFor(1);
  assert.deepEqual(c.received[0], { type: 'welcome', lastSeq: 0 });
  c.send(ev(1));
  c.send(ev(2, { suppressed: 4 }));
  c.send(ev(2));
  await c.waitFor(4);
  assert.deepEqual(c.received.slice(1), [
    { type: 'ack', seq: 1 },
    { type: 'ack', seq: 2 },
    { type: 'ack', seq: 2 },
  ]);
  const [item] = await fleet.control.items({ siteId: 'site-hamburg' });
  assert.equal(item!.occurrences, 2);
  assert.equal(item!.suppressed, 4);
  assert.equal((await fleet.control.stats()).duplicates, 1);
  c.close();
  // a new connection of the same stream learns what was processed
  const again = await rawClient(reg.ingest);
  t.after(async () => again.close());
  again.send(hello());
  await again.waitFor(1);
  assert.deepEqual(again.received[0], { type: 'welcome', lastSeq: 2 });
});

test('a bad hello, an unknown site and a wrong key are refused and the connection closes', async (t) => {
  const { reg } = await controller(t);
  for (const [first, reason] of [
    [{ type: 'event' }, 'bad-hello'],
    ['not json', 'bad-hello'],
    [hello({ siteId: 'site-nowhere' }), 'unknown-site'],
    [hello({ siteId: 'site-kiel' }), 'unknown-site'],
    [hello({ key: 'nope' }), 'bad-key'],
  ] as const) {
    const c = await rawClient(reg.ingest);
    if (typeof first === 'string') c.socket.write(`${first}\n`);
    else c.send(first);
    await c.waitClosed();
    assert.deepEqual(c.received, [{ type: 'refused', reason }]);
  }
});

test('malformed events are counted and acknowledged; an inventory updates the findings', async (t) => {
  const { fleet, reg } = await controller(t);
  const c = await rawClient(reg.ingest);
  t.after(async () => c.close());
  c.send(hello());
  await c.waitFor(1);
  c.send(ev(1, { event: { module: '', subject: 'x', severity: 'ERROR', at: T0 } }));
  c.send(ev(2, { event: { module: 'M', subject: 'x', severity: 'FATAL', at: T0 } }));
  c.send({ type: 'inventory', inventory: { broken: true } });
  c.send({
    type: 'inventory',
    inventory: { at: T0, pbxVersion: '1', updateKind: 'major', sipProviders: [], backups: [], modules: [] },
  });
  await c.waitFor(3);
  const stats = await fleet.control.stats();
  assert.equal(stats.invalid, 3);
  assert.equal(stats.accepted, 0);
  const inventory = partsOf(fleet).state.ingest.inventories.get('site-hamburg');
  assert.equal(inventory?.updateKind, 'major');
});

test('a line longer than the bound closes the connection without growing a buffer', async (t) => {
  const { fleet, reg } = await controller(t);
  const c = await rawClient(reg.ingest);
  c.send(hello());
  await c.waitFor(1);
  c.socket.write('x'.repeat(MAX_LINE_BYTES + 10));
  await c.waitClosed();
  assert.equal((await fleet.control.linkStatus({ siteId: 'site-hamburg' })).connected, 0);
  assert.throws(() => new LineReader(4).push(Buffer.from('12345')), LineTooLongError);
  assert.deepEqual(new LineReader(4).push(Buffer.from('ab\ncd\n')), ['ab', 'cd']);
});

test('cutting the link closes the connection with refused link-cut and refuses a reconnect until restored', async (t) => {
  const { fleet, reg } = await controller(t);
  const c = await rawClient(reg.ingest);
  c.send(hello());
  await c.waitFor(1);
  assert.equal((await fleet.control.linkStatus({ siteId: 'site-hamburg' })).connected, 1);
  await fleet.control.cutLink({ siteId: 'site-hamburg' });
  assert.equal((await fleet.control.linkStatus({ siteId: 'site-hamburg' })).connected, 0, 'offline at once');
  await c.waitClosed();
  assert.deepEqual(c.received.at(-1), { type: 'refused', reason: 'link-cut' });
  const d = await rawClient(reg.ingest);
  d.send(hello());
  await d.waitClosed();
  assert.deepEqual(d.received, [{ type: 'refused', reason: 'link-cut' }]);
  await fleet.control.restoreLink({ siteId: 'site-hamburg' });
  const e = await rawClient(reg.ingest);
  t.after(async () => e.close());
  e.send(hello());
  await e.waitFor(1);
  assert.equal(e.received[0]!['type'], 'welcome');
});

test('EVENT-UNSPEC-TRANSPORT: a hello and events written at once get the welcome and every ack, in order', async (t) => {
  const { fleet, reg } = await controller(t);
  const c = await rawClient(reg.ingest);
  t.after(async () => c.close());
  const events = Array.from({ length: 50 }, (_, i) => ev(i + 1));
  c.socket.write([hello(), ...events, ev(7)].map((m) => `${JSON.stringify(m)}\n`).join(''));
  await c.waitFor(52);
  assert.deepEqual(c.received, [
    { type: 'welcome', lastSeq: 0 },
    ...events.map((e) => ({ type: 'ack', seq: e.seq })),
    { type: 'ack', seq: 7 },
  ]);
  const [item] = await fleet.control.items({ siteId: 'site-hamburg' });
  assert.equal(item!.occurrences, 50, 'the re-sent 7 counts once');
});

test('events read in one turn are applied in one transaction, and each ack leaves after the commit that holds its event', async (t) => {
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  /** Stream positions as the last outermost transaction committed them. */
  const committed = new Map<string, number>();
  const pending = new Map<string, number>();
  let depth = 0;
  let transactions = 0;
  const journal: FleetJournal = {
    ...MEMORY_JOURNAL,
    atomically(fn) {
      depth++;
      try {
        return fn();
      } finally {
        if (--depth === 0) {
          transactions++;
          for (const [id, seq] of pending) committed.set(id, seq);
          pending.clear();
        }
      }
    },
    batch(fn) {
      return { result: journal.atomically(fn), committed: null };
    },
    stream(id, seq) {
      if (seq !== null) pending.set(id, seq);
    },
  };
  const state = new FleetState(clock, FAST_SCRYPT, journal);
  await state.load({ ...sitesOnly(), pbxs: [{ siteId: 'site-hamburg', key: 'the-key' }] });
  const ingest = await startIngestServer(state, { host: '127.0.0.1', port: 0 });
  t.after(() => ingest.close());
  const c = await rawClient(ingest.url);
  t.after(async () => c.close());
  c.send(hello());
  await c.waitFor(1);
  const stream = 'site-hamburg\u0000s1';
  // Watch what the listener writes to its sockets: each ack, and the committed position then.
  const port = Number(new URL(ingest.url).port);
  const written: { seq: number; committed: number }[] = [];
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, data: unknown, ...rest: unknown[]) {
    if (this.localPort === port && typeof data === 'string') {
      for (const m of data.matchAll(/"type":"ack","seq":(\d+)/g))
        written.push({ seq: Number(m[1]), committed: committed.get(stream) ?? 0 });
    }
    return (write as (...args: unknown[]) => boolean).call(this, data, ...rest);
  } as typeof write;
  t.after(() => {
    Socket.prototype.write = write;
  });
  const before = transactions;
  const count = 200;
  c.socket.write(Array.from({ length: count }, (_, i) => `${JSON.stringify(ev(i + 1))}\n`).join(''));
  await c.waitFor(count + 1);
  const acks = c.received.slice(1).map((m) => m['seq'] as number);
  assert.deepEqual(
    acks,
    Array.from({ length: count }, (_, i) => i + 1),
  );
  assert.ok(transactions - before < count, `${transactions - before} transactions for ${count} events`);
  assert.deepEqual(
    written.map((w) => w.seq),
    acks,
  );
  for (const { seq, committed } of written)
    assert.ok(committed >= seq, `ack ${seq} written before its commit`);
  assert.equal(committed.get(stream), count);
});

test('with a journal that commits later, answers wait for their batch and every earlier one, and a cut is answered after them (issue 31 §3)', async (t) => {
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  const commits: { resolve: () => void; promise: Promise<void> }[] = [];
  const journal: FleetJournal = {
    ...MEMORY_JOURNAL,
    batch(fn) {
      const result = fn();
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      commits.push({ resolve, promise });
      return { result, committed: promise };
    },
  };
  const state = new FleetState(clock, FAST_SCRYPT, journal);
  await state.load({ ...sitesOnly(), pbxs: [{ siteId: 'site-hamburg', key: 'the-key' }] });
  const ingest = await startIngestServer(state, { host: '127.0.0.1', port: 0 });
  t.after(() => {
    // Closing waits for the answers of every batch: let those a failed assertion left go.
    for (const commit of commits) commit.resolve();
    return ingest.close();
  });
  const c = await rawClient(ingest.url);
  t.after(async () => c.close());
  const batches = async (n: number) => {
    const deadline = Date.now() + 3_000;
    while (commits.length < n) {
      if (Date.now() > deadline) throw new Error(`waited for batch ${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const quiet = () => new Promise((r) => setTimeout(r, 40));

  c.send(hello());
  await batches(1);
  await quiet();
  assert.equal(c.received.length, 0, 'no welcome before its batch has committed');
  commits[0]!.resolve();
  await c.waitFor(1);
  assert.equal(c.received[0]!['type'], 'welcome');

  c.socket.write(`${[1, 2, 3].map((seq) => JSON.stringify(ev(seq))).join('\n')}\n`);
  await batches(2);
  c.socket.write(`${[4, 5].map((seq) => JSON.stringify(ev(seq))).join('\n')}\n`);
  await batches(3);
  assert.equal(state.attention.book.itemsOf('site-hamburg')[0]?.occurrences, 5, 'applied at once');
  commits[2]!.resolve();
  await quiet();
  assert.equal(c.received.length, 1, 'the later batch waits for the earlier one');
  commits[1]!.resolve();
  await c.waitFor(6);
  assert.deepEqual(
    c.received.slice(1).map((m) => m['seq']),
    [1, 2, 3, 4, 5],
  );

  c.send(ev(6));
  await batches(4);
  state.ingest.cutLink('site-hamburg');
  await quiet();
  assert.equal(c.received.length, 6, 'neither the ack nor the refusal before the commit');
  commits[3]!.resolve();
  await c.waitFor(8);
  assert.deepEqual(c.received.slice(6), [
    { type: 'ack', seq: 6 },
    { type: 'refused', reason: 'link-cut' },
  ]);
  await c.waitClosed();
});

test('a shard channel turned away at the connection limit hears refused connection-limit before it closes, and the operator reads it once per peer', async (t) => {
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  const state = new FleetState(clock, FAST_SCRYPT, MEMORY_JOURNAL);
  await state.load({ ...sitesOnly(), pbxs: [{ siteId: 'site-hamburg', key: 'the-key' }] });
  const warnings: string[] = [];
  // One registered PBX: the limit is 2 (twice the registered PBXs, above the 1 asked for).
  const ingest = await startIngestServer(state, {
    host: '127.0.0.1',
    port: 0,
    maxConnections: 1,
    warn: (line) => warnings.push(line),
  });
  t.after(() => ingest.close());
  const url = new URL(ingest.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  t.after(() => socket.destroy());
  socket.on('error', () => {});
  const frames: string[] = [];
  const reader = new LineReader();
  socket.on('data', (chunk: Buffer) => frames.push(...reader.push(chunk)));
  const waitFor = async (what: string, done: () => boolean) => {
    const deadline = Date.now() + 3_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited for ${what}, got ${JSON.stringify(frames)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const helloOf = (stream: string) => JSON.stringify(hello({ stream }));
  socket.write(`{"type":"mux","version":1}\n1\t${helloOf('s1')}\n2\t${helloOf('s2')}\n`);
  await waitFor('two welcomes', () => frames.filter((f) => f.includes('"welcome"')).length === 2);
  // Twice a third session: each is turned away with the reason, then closed.
  for (const channel of [3, 4]) {
    socket.write(`${channel}\t${helloOf(`s${channel}`)}\n`);
    await waitFor(`channel ${channel} closed`, () => frames.includes(`${channel}\t`));
    assert.deepEqual(
      frames.filter((f) => f.startsWith(`${channel}\t`)),
      [`${channel}\t{"type":"refused","reason":"connection-limit"}`, `${channel}\t`],
    );
  }
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0]!,
    /^ingest: refused a PBX link from 127\.0\.0\.1 for site "site-hamburg": connection-limit, /,
  );
  assert.ok(!warnings[0]!.includes('the-key'), 'never a key');
  assert.equal(ingest.connections('site-hamburg'), 2, 'the two sessions within the limit stay');
});

test('a plain connection past the connection limit hears refused connection-limit before it closes, and the operator reads it once per peer', async (t) => {
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  const state = new FleetState(clock, FAST_SCRYPT, MEMORY_JOURNAL);
  await state.load({ ...sitesOnly(), pbxs: [{ siteId: 'site-hamburg', key: 'the-key' }] });
  const warnings: string[] = [];
  // One registered PBX: the limit is 2 (twice the registered PBXs, above the 1 asked for).
  const ingest = await startIngestServer(state, {
    host: '127.0.0.1',
    port: 0,
    maxConnections: 1,
    warn: (line) => warnings.push(line),
  });
  t.after(() => ingest.close());
  const within = [await rawClient(ingest.url), await rawClient(ingest.url)];
  for (const [i, c] of within.entries()) {
    t.after(async () => c.close());
    c.send(hello({ stream: `s${i}` }));
    await c.waitFor(1);
    assert.equal(c.received[0]!['type'], 'welcome');
  }
  // Twice a third connection: each is told why, then closed.
  for (const stream of ['s3', 's4']) {
    const over = await rawClient(ingest.url);
    t.after(async () => over.close());
    over.send(hello({ stream }));
    over.send(ev(1));
    await over.waitClosed();
    assert.deepEqual(over.received, [{ type: 'refused', reason: 'connection-limit' }]);
  }
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0]!,
    /^ingest: refused a PBX link from 127\.0\.0\.1 for site "site-hamburg": connection-limit, /,
  );
  assert.ok(!warnings[0]!.includes('the-key'), 'never a key');
  assert.equal(ingest.connections('site-hamburg'), 2, 'the two connections within the limit stay');
  assert.equal(
    state.attention.book.itemsOf('site-hamburg').length,
    0,
    'nothing of a refused link is applied',
  );
});

test('a batch that is not committed is answered by nothing: its connection closes, the listener stays up and says so once, and the re-sent events are acknowledged once a commit succeeds', async (t) => {
  const clock = new VirtualClock({ start: T0 });
  t.after(() => clock.dispose());
  /** Each batch's commit, settled by the test. */
  const commits: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const journal: FleetJournal = {
    ...MEMORY_JOURNAL,
    batch(fn) {
      const result = fn();
      let settle = { resolve: () => {}, reject: (_: Error) => {} };
      const committed = new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
      });
      commits.push(settle);
      return { result, committed };
    },
  };
  const state = new FleetState(clock, FAST_SCRYPT, journal);
  await state.load({ ...sitesOnly(), pbxs: [{ siteId: 'site-hamburg', key: 'the-key' }] });
  const warnings: string[] = [];
  const ingest = await startIngestServer(state, {
    host: '127.0.0.1',
    port: 0,
    warn: (line) => warnings.push(line),
  });
  t.after(() => {
    for (const commit of commits) commit.resolve();
    return ingest.close();
  });
  const batches = async (n: number) => {
    const deadline = Date.now() + 3_000;
    while (commits.length < n) {
      if (Date.now() > deadline) throw new Error(`waited for batch ${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const diskFull = () =>
    new Error('the data directory did not commit a batch of writes: No space left on device (28)');

  const first = await rawClient(ingest.url);
  t.after(async () => first.close());
  first.send(hello());
  await batches(1);
  commits[0]!.resolve();
  await first.waitFor(1);
  first.socket.write(`${[1, 2, 3].map((seq) => JSON.stringify(ev(seq))).join('\n')}\n`);
  await batches(2);
  // A second PBX's batch made before the failure is known: not answered either.
  const other = await rawClient(ingest.url);
  t.after(async () => other.close());
  other.send(hello({ stream: 's2' }));
  await batches(3);
  commits[1]!.reject(diskFull());
  commits[2]!.resolve();
  await first.waitClosed();
  await other.waitClosed();
  assert.deepEqual(first.received, [{ type: 'welcome', lastSeq: 0 }], 'no ack of an uncommitted batch');
  assert.deepEqual(other.received, [], 'no answer made before the failure was known');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0]!,
    /^ingest: a batch of ingested lines was not committed \(the data directory did not commit a batch of writes: No space left on device \(28\)\): nothing of it was acknowledged and its 1 connection\(s\) were closed, so their PBXs re-send; /,
  );
  assert.ok(!warnings.join('\n').includes('the-key'), 'never a key');

  // The PBX reconnects and re-sends what was not acknowledged; the next commit succeeds.
  const again = await rawClient(ingest.url);
  t.after(async () => again.close());
  again.send(hello());
  await batches(4);
  commits[3]!.resolve();
  await again.waitFor(1);
  assert.deepEqual(again.received[0], { type: 'welcome', lastSeq: 3 });
  again.socket.write(`${[1, 2, 3, 4].map((seq) => JSON.stringify(ev(seq))).join('\n')}\n`);
  await batches(5);
  commits[4]!.resolve();
  await again.waitFor(5);
  assert.deepEqual(
    again.received.slice(1).map((m) => m['seq']),
    [1, 2, 3, 4],
  );
  assert.equal(state.attention.book.itemsOf('site-hamburg')[0]?.occurrences, 4, 'each event counted once');
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.equal(warnings[1], 'ingest: batches commit again, after 1 not committed');
});
