import type { Database, RootDatabase } from 'lmdb';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { FleetCounters, FleetJournal, ItemChange, StoredLink } from '../model/fleet-journal.ts';
import type {
  AccessTokenRecord,
  Account,
  AttentionItem,
  HistoryRecord,
  PartnerAccess,
  Site,
  SiteRight,
} from '../model/types.ts';
import { storeKey } from './store-key.ts';
import { encodeItemCounts, itemCounts, toItemDetails } from './stored-item.ts';

/**
 * The named databases of one controller environment; the names are the on-disk format. An
 * attention item is two records under its id: its details in `items` (JSON) and its per-merge
 * counts in `itemCounts` (`ITEM_COUNTS_BYTES` bytes, `stored-item.ts`).
 */
export const TABLE_NAMES = [
  'partners',
  'sites',
  'rights',
  'accounts',
  'tokens',
  'links',
  'inventories',
  'items',
  'itemCounts',
  'history',
  'streams',
  'meta',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];
/** How each table's values are encoded (part of the on-disk format). */
export const TABLE_ENCODING = (name: TableName): 'binary' | 'json' =>
  name === 'itemCounts' ? 'binary' : 'json';
export type Tables = Record<TableName, Database<unknown, string | number>>;

/** One write of a batch: the value as it was when the batch was done (`null` removes). */
interface QueuedWrite {
  table: TableName;
  key: string | number;
  value: unknown;
}

/**
 * A batch's writes until they are known committed: `written` once its values are in a transaction
 * (`by` names it: the batch whose asynchronous transaction wrote them, or `SYNC`), `settled` once
 * that transaction committed.
 */
interface QueuedBatch {
  writes: QueuedWrite[];
  written: boolean;
  by: QueuedBatch | typeof SYNC | null;
  settled: boolean;
  /** Its own transaction failed: its values wait for the next. */
  carried: boolean;
  /** Keys a synchronous transaction wrote while batches were unsettled (it has no `writes`). */
  keys?: Set<string>;
}

/** The writer of values taken into a synchronous transaction. */
const SYNC = Symbol('synchronous transaction');

/**
 * A batch's transaction did not commit (a full disk, an I/O error): nothing of it is durable; the
 * journal writes its values again with the next transaction. The message names the cause as LMDB
 * gives it (never a value).
 */
export class JournalCommitError extends Error {
  override name = 'JournalCommitError';
}

/** The identity of a write's key, to tell which later write replaces it. */
const slot = (table: TableName, key: string | number) => `${table}\u0000${typeof key}\u0000${key}`;

/** LMDB's own cause of a failed commit (`commitError`, e.g. `Input/output error`), one line. */
async function commitCause(error: unknown): Promise<string> {
  let cause: unknown = error;
  const detail = (error as { commitError?: unknown } | null)?.commitError;
  if (typeof (detail as PromiseLike<unknown> | undefined)?.then === 'function') {
    // Settled by LMDB when it reports the failure; never left waiting on.
    cause = await Promise.race([
      Promise.resolve(detail).then(
        () => error,
        (reason: unknown) => reason,
      ),
      new Promise((resolve) => setImmediate(() => resolve(error))),
    ]);
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown } | null)?.code;
  const line = (message.split('\n')[0] ?? '').slice(0, 200);
  return code === undefined ? line : `${line} (${String(code)})`;
}

/**
 * The last value written under each key inside a block. Items are kept as the objects themselves
 * and turned into their stored form once, when the block is done (the item as it is then): the
 * counts of each, and the details of those whose details changed in the block.
 */
class PendingWrites {
  readonly items = new Map<number, AttentionItem>();
  /** Ids of the items whose details changed in the block. */
  readonly detailed = new Set<number>();
  readonly others = new Map<string, QueuedWrite>();

  /** The writes to make, each key once; empties the collection. */
  take(): QueuedWrite[] {
    const writes = [...this.others.values()];
    const items = [...this.items.values()];
    // The counts of the whole block in one buffer, each value a view of its part.
    const counts = encodeItemCounts(items);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (this.detailed.has(item.id))
        writes.push({ table: 'items', key: item.id, value: toItemDetails(item) });
      writes.push({ table: 'itemCounts', key: item.id, value: counts[i] });
    }
    this.clear();
    return writes;
  }

  clear(): void {
    this.items.clear();
    this.detailed.clear();
    this.others.clear();
  }
}

/**
 * Version of the stored form, in `meta` under `format`. 2: an item as details and counts (issue
 * 31 §3); a directory of format 1 (one JSON record per item) is migrated when it is opened
 * (`fleet-database.ts`).
 */
export const STORE_FORMAT = 2;

/**
 * `FleetJournal` on LMDB (issue 4, section 1). Every write outside `batch` is synchronous
 * (`putSync` / `removeSync`), so it is committed before the state change can be answered; a
 * `batch` (the ingest listener's) commits asynchronously and its answers wait for it; `atomically` is
 * `transactionSync`, and writes made inside it — nested `atomically` blocks included — join that
 * one transaction, so an acknowledgement and its history entry, an item merge and its counters and
 * stream position, or a whole batch of ingested reports commit together or not at all. Only hashes
 * of passwords, tokens and ingest keys reach it.
 */
export class LmdbJournal implements FleetJournal {
  constructor(
    private readonly root: RootDatabase,
    private readonly tables: Tables,
  ) {}

  /** Depth of `atomically` calls; inner ones join the outer transaction. */
  private depth = 0;
  /**
   * Inside a transaction, the last value written under each key (`null`: removed), written when
   * the block is done and before the transaction commits (issue 31 §3): a batch of 500 events on
   * one item and stream writes that item, that stream position and the counters once each, not
   * 500 times. Nothing reads the journal while the controller runs (the state is in memory), and
   * what commits is exactly what the last writes would have left.
   */
  private pending: PendingWrites | null = null;
  /**
   * Batches whose values are in no transaction yet, oldest first: those whose asynchronous
   * transaction has not yet run its callback, and before them failed batches' values waiting for
   * the next transaction (`carried`, see `failed`).
   */
  private readonly queued: QueuedBatch[] = [];
  /**
   * Every batch not yet known committed, and the keys that synchronous transactions wrote
   * meanwhile, in the order they were written: what a failed batch must not overwrite.
   */
  private readonly unsettled: QueuedBatch[] = [];
  /** While a synchronous transaction runs with batches unsettled: the keys it writes. */
  private syncKeys: Set<string> | null = null;

  atomically<T>(fn: () => T): T {
    // An inner block runs in the outer transaction, not in an LMDB child transaction: no caller
    // catches an inner failure inside an outer block, so the outer aborts whole either way, and a
    // batch of ingested reports saves a child begin and commit per report.
    if (this.depth > 0) return fn();
    this.depth++;
    try {
      return this.transactSync(() => {
        const pending = new PendingWrites();
        this.pending = pending;
        try {
          const result = fn();
          for (const { table, key, value } of pending.take()) this.store(table, key, value);
          return result;
        } finally {
          this.pending = null;
        }
      });
    } finally {
      this.depth--;
    }
  }

  /**
   * Runs `fn` as `atomically` does, but commits its writes in LMDB's asynchronous transaction, off
   * the event loop's thread with its `fsync`, while the next batch is already being applied (issue
   * 31 §3: the synchronous commit was a third of the ingest listener's time). `committed` settles
   * once the transaction is committed (LMDB's overlapping sync flushes it to disk just after),
   * and rejects with a `JournalCommitError`
   * when it was not (see `failed`).
   *
   * The order of writes is kept. A batch's values are taken when `fn` is done and written by its
   * transaction callback, and LMDB runs those callbacks in order. A synchronous transaction
   * (`atomically`, a write outside one, `clear`) made while batches still wait for their
   * transaction first writes those batches' values, in order, then its own, and marks them
   * written, so their callbacks write nothing: an older batch value can never land after a later
   * synchronous write and overwrite it (LMDB itself would commit a synchronous transaction before
   * asynchronous writes queued earlier). Inside an `atomically` block, `fn` simply joins it.
   */
  batch<T>(fn: () => T): { result: T; committed: Promise<void> | null } {
    if (this.depth > 0) return { result: fn(), committed: null };
    this.depth++;
    const pending = new PendingWrites();
    this.pending = pending;
    let result: T;
    let writes: QueuedWrite[];
    try {
      result = fn();
      writes = pending.take();
    } finally {
      this.pending = null;
      this.depth--;
    }
    // A batch without writes still needs a transaction while failed batches' values wait for one:
    // what it answers (a `welcome`) may name their positions.
    if (writes.length === 0 && !this.queued.some((entry) => entry.carried))
      return { result, committed: null };
    const entry: QueuedBatch = { writes, written: false, by: null, settled: false, carried: false };
    this.queued.push(entry);
    this.unsettled.push(entry);
    const committed = this.root
      .transaction(() => this.writeThrough(entry))
      .then(
        () => this.settle(entry),
        (error: unknown) => this.failed(entry, error),
      );
    return { result, committed };
  }

  /**
   * A batch's transaction callback: writes the failed batches' values waiting before it and its
   * own, unless a synchronous transaction took them already. Callbacks run in order, so every batch
   * made before it is written.
   */
  private writeThrough(entry: QueuedBatch): void {
    if (entry.written) return;
    let taken = 0;
    while (taken < this.queued.length) {
      const next = this.queued[taken++]!;
      this.writeQueued(next, entry);
      if (next === entry) break;
    }
    this.queued.splice(0, taken);
  }

  /** The batch's transaction committed: so did every value it wrote. */
  private settle(entry: QueuedBatch): void {
    for (const other of this.unsettled) if (other === entry || other.by === entry) other.settled = true;
    this.dropSettled();
  }

  /**
   * The batch's transaction did not commit (a full disk, an I/O error): the controller stays up.
   * The values it wrote — its own and failed batches' it carried — wait again for the next
   * transaction (a batch's, or a synchronous one; at the latest the counters written at close),
   * each only where nothing written later has the same key: that later value is newer and
   * commits, or is carried, itself. So the store catches up with the state at the next commit, and
   * an older value never lands after a newer one. `committed` rejects with a `JournalCommitError`
   * naming LMDB's cause, unless a synchronous transaction had committed the batch's values.
   */
  private async failed(entry: QueuedBatch, error: unknown): Promise<void> {
    const cause = await commitCause(error);
    if (entry.settled) return;
    const back: QueuedBatch[] = [];
    for (const [at, lost] of this.unsettled.entries()) {
      if (lost !== entry && lost.by !== entry) continue;
      const later = new Set<string>();
      for (const newer of this.unsettled.slice(at + 1)) {
        for (const key of newer.keys ?? []) later.add(key);
        for (const write of newer.writes) later.add(slot(write.table, write.key));
      }
      lost.writes = lost.writes.filter((write) => !later.has(slot(write.table, write.key)));
      lost.written = false;
      lost.by = null;
      lost.carried = true;
      if (lost.writes.length === 0) lost.settled = true;
      else back.push(lost);
    }
    this.queued.unshift(...back);
    this.dropSettled();
    throw new JournalCommitError(`the data directory did not commit a batch of writes: ${cause}`);
  }

  private dropSettled(): void {
    let done = 0;
    while (done < this.unsettled.length && this.unsettled[done]!.settled) done++;
    if (done > 0) this.unsettled.splice(0, done);
  }

  /**
   * A synchronous transaction: the values of batches waiting for a transaction go first, in order
   * (see `batch`), then `fn`'s. If it does not commit, those batches wait again. While batches are
   * unsettled, the keys it writes are remembered with them, so a failed batch never overwrites them.
   */
  private transactSync<T>(fn: () => T): T {
    const taken = [...this.queued];
    const keys = this.unsettled.length > 0 ? new Set<string>() : null;
    this.syncKeys = keys;
    try {
      const result = this.root.transactionSync(() => {
        this.absorbQueued();
        return fn();
      });
      for (const entry of taken) entry.settled = true;
      if (keys !== null && keys.size > 0) {
        this.unsettled.push({ writes: [], keys, written: true, by: SYNC, settled: true, carried: false });
      }
      this.dropSettled();
      return result;
    } catch (error) {
      for (const entry of taken) {
        entry.written = false;
        entry.by = null;
      }
      this.queued.unshift(...taken);
      throw error;
    } finally {
      this.syncKeys = null;
    }
  }

  /** Writes the values of every batch still waiting for a transaction, oldest first. */
  private absorbQueued(): void {
    for (const entry of this.queued) this.writeQueued(entry, SYNC);
    this.queued.length = 0;
  }

  private writeQueued(entry: QueuedBatch, by: QueuedBatch | typeof SYNC): void {
    if (entry.written) return;
    entry.written = true;
    entry.by = by;
    for (const { table, key, value } of entry.writes) this.store(table, key, value);
  }

  partner(partner: PartnerAccess): void {
    this.write('partners', storeKey(partner.id), partner);
  }

  site(site: Site): void {
    this.write('sites', storeKey(site.id), site);
  }

  right(partnerId: string, siteId: string, right: SiteRight | null): void {
    this.write('rights', storeKey(partnerId, siteId), right);
  }

  account(account: Account): void {
    this.write('accounts', storeKey(account.id), account);
  }

  token(id: string, token: AccessTokenRecord | null): void {
    this.write('tokens', storeKey(id), token);
  }

  link(siteId: string, link: StoredLink | null): void {
    this.write('links', storeKey(siteId), link);
  }

  inventory(siteId: string, inventory: PbxInventory | null): void {
    this.write('inventories', storeKey(siteId), inventory === null ? null : { siteId, inventory });
  }

  item(item: AttentionItem, changed: ItemChange = 'all'): void {
    // The item as it is when written: at the end of the block inside a transaction.
    if (this.pending) {
      this.pending.items.set(item.id, item);
      if (changed === 'all') this.pending.detailed.add(item.id);
      return;
    }
    const counts: QueuedWrite = { table: 'itemCounts', key: item.id, value: itemCounts(item) };
    if (changed === 'counts') this.now(counts);
    // Both parts in one transaction.
    else this.now({ table: 'items', key: item.id, value: toItemDetails(item) }, counts);
  }

  history(record: HistoryRecord): void {
    this.write('history', record.seq, record);
  }

  stream(id: string, seq: number | null): void {
    this.write('streams', storeKey(id), seq === null ? null : { id, seq });
  }

  counters(counters: FleetCounters): void {
    this.write('meta', 'counters', counters);
  }

  clear(): void {
    // Writes still waiting in the running block were made before the clear: it removes them too.
    this.pending?.clear();
    // So are the values of batches still waiting for their transaction, or for their commit.
    for (const entry of [...this.queued, ...this.unsettled]) {
      entry.written = true;
      entry.settled = true;
    }
    this.queued.length = 0;
    this.unsettled.length = 0;
    this.root.transactionSync(() => {
      for (const name of TABLE_NAMES) this.tables[name].clearSync();
      this.tables.meta.putSync('format', STORE_FORMAT);
    });
  }

  /** Writes `value` under `key` (`null` removes it): at once, or at the end of the running block. */
  private write(table: TableName, key: string | number, value: unknown): void {
    if (this.pending)
      this.pending.others.set(`${table}\u0000${typeof key}\u0000${key}`, { table, key, value });
    else this.now({ table, key, value });
  }

  /** Writes outside a block: their own transaction (one put needs none of its own). */
  private now(...writes: QueuedWrite[]): void {
    if (this.queued.length > 0 || this.unsettled.length > 0 || writes.length > 1) {
      // Batches waiting for their transaction go first, in this one (see `batch`); batches
      // waiting for their commit learn the keys (see `failed`).
      this.transactSync(() => {
        for (const { table, key, value } of writes) this.store(table, key, value);
      });
    } else for (const { table, key, value } of writes) this.store(table, key, value);
  }

  private store(table: TableName, key: string | number, value: unknown): void {
    this.syncKeys?.add(slot(table, key));
    if (value === null) this.tables[table].removeSync(key);
    else this.tables[table].putSync(key, value);
  }
}
