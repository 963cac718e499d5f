import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { ABORT, type RootDatabase } from 'lmdb';
import type { FleetJournal } from '../../../../simulators/fleet-controller/model/fleet-journal.ts';
import type { AttentionItem } from '../../../../simulators/fleet-controller/model/types.ts';
import { openFleetDatabase } from '../../../../simulators/fleet-controller/persistence/fleet-database.ts';
import { JournalCommitError } from '../../../../simulators/fleet-controller/persistence/lmdb-journal.ts';
import { T0 } from '../fleet-test-kit.ts';

async function database(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-batch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = await openFleetDatabase(dir);
  // What a new controller does first (its fixture's load): the store format and nothing else.
  db.journal.clear();
  let open = true;
  t.after(() => (open ? db.close() : undefined));
  return {
    db,
    /** Closes the environment and reads what a restarted controller would get back. */
    async reopen() {
      open = false;
      await db.close();
      const again = await openFleetDatabase(dir);
      try {
        return again.read();
      } finally {
        await again.close();
      }
    },
  };
}

function item(id: number, occurrences: number, acks: [string, number][] = []): AttentionItem {
  return {
    id,
    siteId: 'site-a',
    module: 'Backup',
    subject: `subject ${id}`,
    severity: 'ERROR',
    firstAt: T0,
    lastAt: T0 + occurrences,
    occurrences,
    suppressed: 0,
    acks: new Map(acks.map(([partnerId, at]) => [partnerId, { at }])),
  };
}

test('a batch commits asynchronously, and a synchronous write made while it waits is never overwritten by its older values (issue 31 §3)', async (t) => {
  const { db, reopen } = await database(t);
  const { journal } = db;
  const committed: Promise<void>[] = [];
  for (let round = 0; round < 40; round++) {
    // The ingest listener's batch: item 1 merged (no acknowledgement), a stream position.
    const batch = journal.batch(() => {
      journal.item(item(1, round + 1));
      journal.item(item(100 + round, 1));
      journal.stream('stream-a', round + 1);
    });
    assert.ok(batch.committed, 'a batch with writes commits later');
    committed.push(batch.committed);
    // Before, within or after the batch's transaction: an acknowledgement of item 1 through the
    // API, written synchronously with its counters.
    if (round % 3 === 1) await new Promise((resolve) => setImmediate(resolve));
    if (round % 3 === 2) await Promise.resolve();
    journal.atomically(() => {
      journal.item(item(1, round + 1, [['p-1', T0 + round]]));
      journal.counters({ nextItemId: 200, historySeq: round + 1, stats: emptyStats(), clockAt: T0 + round });
    });
  }
  await Promise.all(committed);
  const snapshot = await reopen();
  assert.ok(snapshot);
  const stored = snapshot.items.find((i) => i.id === 1);
  assert.deepEqual(
    [...(stored?.acks ?? [])],
    [['p-1', { at: T0 + 39 }]],
    'the acknowledgement written last stays',
  );
  assert.equal(stored?.occurrences, 40);
  assert.equal(snapshot.items.length, 41, 'every batch committed its own items');
  assert.deepEqual(snapshot.streams, [{ id: 'stream-a', seq: 40 }]);
  assert.equal(snapshot.counters.historySeq, 40);
});

test('batches commit in order, each whole: a later batch never lands under an earlier one', async (t) => {
  const { db, reopen } = await database(t);
  const { journal } = db;
  const order: number[] = [];
  const committed = Array.from({ length: 20 }, (_, round) => {
    const { committed } = journal.batch(() => {
      journal.item(item(1, round + 1));
      journal.stream('stream-a', round + 1);
      journal.counters({ nextItemId: 2, historySeq: 0, stats: emptyStats(), clockAt: T0 + round });
    });
    return committed!.then(() => order.push(round));
  });
  await Promise.all(committed);
  assert.deepEqual(
    order,
    Array.from({ length: 20 }, (_, i) => i),
    'committed in the order they were made',
  );
  const snapshot = await reopen();
  assert.equal(snapshot?.items.find((i) => i.id === 1)?.occurrences, 20);
  assert.deepEqual(snapshot?.streams, [{ id: 'stream-a', seq: 20 }]);
});

test('a batch inside an atomically block joins it; a batch without writes is committed already', async (t) => {
  const { db } = await database(t);
  const { journal } = db;
  let inner: Promise<void> | null = Promise.resolve();
  journal.atomically(() => {
    inner = journal.batch(() => journal.item(item(1, 1))).committed;
  });
  assert.equal(inner, null);
  assert.equal(journal.batch(() => 7).committed, null);
  assert.equal(journal.batch(() => 7).result, 7);
});

function emptyStats() {
  return { accepted: 0, capped: 0, cappedSuppressed: 0, duplicates: 0, invalid: 0 };
}

/**
 * Fault injection at the journal's LMDB environment: the transactions `failing` picks do not
 * commit, as on a full disk. Their callback runs in a child transaction that is aborted (nothing of
 * it lands) and the promise rejects as lmdb's does, with LMDB's cause in `commitError`.
 */
function failCommits(journal: FleetJournal, failing: (call: number) => boolean) {
  const root = (journal as unknown as { root: RootDatabase }).root;
  const transaction = root.transaction.bind(root);
  let call = 0;
  root.transaction = (<T>(callback: () => T) => {
    if (!failing(++call)) return transaction(callback);
    return root
      .childTransaction(() => {
        callback();
        return ABORT;
      })
      .then(() => {
        const cause = Object.assign(new Error('Input/output error'), { code: 5 });
        const commitError = Promise.reject(cause);
        commitError.catch(() => {});
        throw Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
      });
  }) as typeof root.transaction;
}

test('a batch whose transaction does not commit rejects with the cause, and its values go with the next commit, never over a later value', async (t) => {
  const { db, reopen } = await database(t);
  const { journal } = db;
  const first = journal.batch(() => {
    journal.item(item(1, 1));
    journal.stream('stream-a', 1);
    journal.counters({ nextItemId: 3, historySeq: 0, stats: emptyStats(), clockAt: T0 });
  });
  await first.committed;
  failCommits(journal, (call) => call === 1);
  // Two batches in one turn: the first does not commit, the second (made before that is known) does.
  const lost = journal.batch(() => {
    journal.item(item(1, 2));
    journal.item(item(2, 1));
    journal.stream('stream-a', 2);
    journal.stream('stream-b', 1);
  });
  const next = journal.batch(() => {
    journal.item(item(1, 3));
    journal.stream('stream-a', 3);
  });
  await assert.rejects(lost.committed!, (error: unknown) => {
    assert.ok(error instanceof JournalCommitError, String(error));
    assert.match(
      error.message,
      /^the data directory did not commit a batch of writes: Input\/output error \(5\)$/,
    );
    return true;
  });
  await next.committed;
  // A batch without writes of its own still commits what waits: the stream position it may name.
  const empty = journal.batch(() => 0);
  assert.ok(empty.committed, 'a transaction while values of a failed batch wait');
  await empty.committed;
  assert.equal(journal.batch(() => 0).committed, null, 'nothing waits any more');
  const snapshot = await reopen();
  assert.equal(snapshot?.items.find((i) => i.id === 1)?.occurrences, 3, 'the later value stays');
  assert.equal(snapshot?.items.find((i) => i.id === 2)?.occurrences, 1, 'the failed batch caught up');
  assert.deepEqual(
    snapshot?.streams.toSorted((a, b) => a.id.localeCompare(b.id)),
    [
      { id: 'stream-a', seq: 3 },
      { id: 'stream-b', seq: 1 },
    ],
  );
});

test('values of a batch that did not commit are written by the next synchronous write, before it', async (t) => {
  const { db, reopen } = await database(t);
  const { journal } = db;
  failCommits(journal, (call) => call === 1);
  const lost = journal.batch(() => {
    journal.item(item(1, 1));
    journal.stream('stream-a', 1);
  });
  await assert.rejects(lost.committed!, JournalCommitError);
  // An acknowledgement through the API, written synchronously.
  journal.atomically(() => {
    journal.item(item(1, 1, [['p-1', T0]]));
    journal.counters({ nextItemId: 2, historySeq: 1, stats: emptyStats(), clockAt: T0 });
  });
  const snapshot = await reopen();
  assert.deepEqual([...(snapshot?.items.find((i) => i.id === 1)?.acks ?? [])], [['p-1', { at: T0 }]]);
  assert.deepEqual(snapshot?.streams, [{ id: 'stream-a', seq: 1 }]);
});
