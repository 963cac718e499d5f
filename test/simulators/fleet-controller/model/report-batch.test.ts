import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type FleetCounters,
  type FleetJournal,
  MEMORY_JOURNAL,
} from '../../../../simulators/fleet-controller/model/fleet-journal.ts';
import { FleetState } from '../../../../simulators/fleet-controller/model/fleet-state.ts';
import type { AttentionItem } from '../../../../simulators/fleet-controller/model/types.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { FAST_SCRYPT, report, sitesOnly, T0 } from '../fleet-test-kit.ts';

/** A journal that keeps what the last writes left, and counts the writes and transactions. */
function recordingJournal() {
  const writes = { counters: 0, streams: 0, items: 0, transactions: 0 };
  const stored = {
    items: new Map<number, string>(),
    streams: new Map<string, number | null>(),
    counters: null as FleetCounters | null,
  };
  let depth = 0;
  const journal: FleetJournal = {
    ...MEMORY_JOURNAL,
    atomically(fn) {
      depth++;
      try {
        return fn();
      } finally {
        if (--depth === 0) writes.transactions++;
      }
    },
    batch(fn) {
      return { result: journal.atomically(fn), committed: null };
    },
    item(item: AttentionItem) {
      writes.items++;
      stored.items.set(item.id, JSON.stringify({ ...item, acks: [...item.acks] }));
    },
    stream(id, seq) {
      writes.streams++;
      stored.streams.set(id, seq);
    },
    counters(counters) {
      writes.counters++;
      stored.counters = structuredClone(counters);
    },
  };
  return { journal, writes, stored };
}

async function fleet() {
  const clock = new VirtualClock({ start: T0 });
  const recording = recordingJournal();
  const state = new FleetState(clock, FAST_SCRYPT, recording.journal);
  await state.load(sitesOnly());
  const siteId = [...state.access.sites.keys()][0]!;
  const partnerId = state.access.partnersOf(siteId)[0]!;
  let changes = 0;
  state.on('change', () => changes++);
  recording.writes.counters = 0;
  recording.writes.streams = 0;
  recording.writes.items = 0;
  recording.writes.transactions = 0;
  return { clock, state, siteId, partnerId, ...recording, changes: () => changes };
}

/** What one ingested event does: the stream's sequence check, then the report. */
function ingest(state: FleetState, siteId: string, seq: number): void {
  if (state.ingest.acceptSequence('stream-a', seq))
    state.attention.report(siteId, report({ subject: `disk ${seq % 3}`, at: T0 + seq }));
}

test('a batch of ingested reports writes its stream position and counters once, touches the views once and emits one change (issue 31 §3)', async (t) => {
  const f = await fleet();
  t.after(() => f.clock.dispose());
  const revision = f.state.viewRevision(f.partnerId);
  f.state.ingestBatch(() => {
    for (let seq = 1; seq <= 100; seq++) ingest(f.state, f.siteId, seq);
    // Nothing reads the state in the middle of a batch; the views are touched at its end.
    assert.equal(f.changes(), 0);
  });
  assert.equal(f.writes.transactions, 1);
  assert.equal(f.writes.counters, 1, 'counters written once per batch, not per report');
  assert.equal(f.writes.streams, 1, 'the stream position written once per batch');
  assert.equal(f.changes(), 1, 'one change event per batch');
  assert.ok(f.state.viewRevision(f.partnerId) > revision, 'the partner sees a new revision');
  assert.equal(f.stored.streams.get('stream-a'), 100);
  assert.equal(f.stored.counters?.stats.accepted, 100);
});

test('a batch leaves the journal and the state exactly as the same reports one by one', async (t) => {
  const single = await fleet();
  const batched = await fleet();
  t.after(() => {
    single.clock.dispose();
    batched.clock.dispose();
  });
  for (let seq = 1; seq <= 60; seq++) ingest(single.state, single.siteId, seq === 30 ? 29 : seq);
  batched.state.ingestBatch(() => {
    for (let seq = 1; seq <= 60; seq++) ingest(batched.state, batched.siteId, seq === 30 ? 29 : seq);
  });
  assert.deepEqual(batched.stored.items, single.stored.items);
  assert.deepEqual(batched.stored.streams, single.stored.streams);
  assert.deepEqual(batched.stored.counters, single.stored.counters);
  assert.deepEqual(batched.state.counters(), single.state.counters());
  assert.equal(batched.state.ingest.stats.duplicates, 1);
  assert.deepEqual(
    batched.state.attention.book.itemsOf(batched.siteId).map((i) => [i.subject, i.occurrences]),
    [
      ['disk 1', 20],
      ['disk 2', 20],
      ['disk 0', 19],
    ],
  );
  assert.ok(single.writes.counters > 50 && batched.writes.counters === 1);
});
