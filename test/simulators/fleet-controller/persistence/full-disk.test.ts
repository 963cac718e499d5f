import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LineReader } from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { T0 } from '../fleet-test-kit.ts';

const CHILD = fileURLToPath(new URL('./fixtures/full-disk-controller.ts', import.meta.url));

/** A PBX's raw link: the answers it was sent, and whether the controller closed it. */
async function link(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
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
  const until = async (what: string, done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited for ${what}, got ${JSON.stringify(received)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return {
    received,
    closed: () => closed,
    send: (v: unknown) => socket.write(`${JSON.stringify(v)}\n`),
    until,
    destroy: () => socket.destroy(),
  };
}

const event = (seq: number) => ({
  type: 'event',
  seq,
  suppressed: 0,
  // A new item each, with the longest description: a few KiB of the disk per event.
  event: {
    module: 'Backup',
    subject: `full ${seq}`,
    description: 'x'.repeat(4000),
    severity: 'ERROR',
    at: T0 + seq,
  },
});

test('on a full disk the controller stays up, acknowledges nothing uncommitted and says so once; once there is room the re-sent events are acknowledged and every acknowledged one is kept', async (t) => {
  const probe = spawnSync('bwrap', ['--dev-bind', '/', '/', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    const reason = probe.error?.message ?? probe.stderr.trim();
    if (process.env['PBX_REQUIRE_SEALED'] === '1') assert.fail(`bubblewrap cannot run: ${reason}`);
    return t.skip(`bubblewrap cannot run here: ${reason}`);
  }
  // The data directory on a tmpfs of 8 MiB inside the child's namespace, over an empty host folder.
  const dir = mkdtempSync(join(tmpdir(), 'full-disk-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(
    'bwrap',
    [
      '--dev-bind',
      '/',
      '/',
      '--size',
      String(8 * 1024 * 1024),
      '--tmpfs',
      dir,
      process.execPath,
      '--import',
      'tsx',
      CHILD,
      dir,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code;
  });
  t.after(() => {
    child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => {
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the child said nothing: ${stderr}`)), 30_000);
      }),
    ]).finally(() => clearTimeout(timer));
    assert.ok(!next.done, `the child ended: ${stderr}`);
    return next.value as string;
  };
  const { ingest, siteId } = JSON.parse(await nextLine()) as { ingest: string; siteId: string };
  const hello = { type: 'hello', version: 1, siteId, key: 'full-disk-key', stream: 's1' };

  // Events one at a time until the disk is full: that batch is neither acknowledged nor kept open.
  const first = await link(ingest);
  t.after(() => first.destroy());
  first.send(hello);
  await first.until('the welcome', () => first.received.length === 1);
  let seq = 0;
  while (!first.closed()) {
    seq++;
    assert.ok(seq < 400, 'the disk never filled');
    first.send(event(seq));
    await first.until(`ack ${seq} or the close`, () => first.closed() || first.received.length === seq + 1);
  }
  const acked = first.received.slice(1).map((m) => m['seq']);
  assert.deepEqual(
    acked,
    Array.from({ length: seq - 1 }, (_, i) => i + 1),
    'no ack of the batch that failed',
  );
  assert.ok(seq > 1, 'some events fitted');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(exited, null, `the controller is still running: ${stderr}`);
  const warnings = stderr.split('\n').filter((line) => line.startsWith('warning: ingest:'));
  assert.equal(warnings.length, 1, stderr);
  assert.match(
    warnings[0]!,
    /^warning: ingest: a batch of ingested lines was not committed \(the data directory did not commit a batch of writes: [^)]+\)/,
  );
  assert.ok(!stderr.includes('full-disk-key'), 'never the key');
  assert.doesNotMatch(stderr, /Unhandled|unhandledRejection/i);

  // Room again: the PBX reconnects, re-sends what was not acknowledged, and goes on.
  child.stdin!.write('free\n');
  assert.equal(await nextLine(), 'freed');
  const again = await link(ingest);
  t.after(() => again.destroy());
  again.send(hello);
  await again.until('the welcome', () => again.received.length === 1);
  assert.deepEqual(
    again.received[0],
    { type: 'welcome', lastSeq: seq },
    'the failed batch is kept in memory and now durable',
  );
  again.send(event(seq));
  again.send(event(seq + 1));
  await again.until('two acks', () => again.received.length === 3);
  assert.deepEqual(again.received.slice(1), [
    { type: 'ack', seq },
    { type: 'ack', seq: seq + 1 },
  ]);
  assert.equal(
    stderr.split('\n').filter((line) => line.startsWith('warning: ingest: batches commit again')).length,
    1,
    stderr,
  );

  // What a restarted controller finds: every event once, the stream at the last.
  child.stdin!.write('close\n');
  const kept = JSON.parse(await nextLine()) as { streams: { id: string; seq: number }[]; items: number[] };
  assert.deepEqual(
    kept.streams.map((s) => s.seq),
    [seq + 1],
  );
  assert.equal(kept.items.length, seq + 1, 'one item per event');
  assert.ok(
    kept.items.every((occurrences) => occurrences === 1),
    'each event counted once',
  );
});
