import type { Database, RootDatabase } from 'lmdb';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { FleetCounters, FleetJournal, StoredLink } from '../model/fleet-journal.ts';
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
import { toStoredItem } from './stored-item.ts';

/** The named databases of one controller environment; the names are the on-disk format. */
export const TABLE_NAMES = [
  'partners',
  'sites',
  'rights',
  'accounts',
  'tokens',
  'links',
  'inventories',
  'items',
  'history',
  'streams',
  'meta',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];
export type Tables = Record<TableName, Database<unknown, string | number>>;

/** One write of a batch: the value as it was when the batch was done (`null` removes). */
interface QueuedWrite {
  table: TableName;
  key: string | number;
  value: unknown;
}

/** A batch waiting for its transaction; `written` once its values are in a transaction. */
interface QueuedBatch {
  writes: QueuedWrite[];
  written: boolean;
}

/**
 * The last value written under each key inside a block. Items are kept as the objects themselves
 * and turned into their stored form once, when the block is done (the item as it is then).
 */
class PendingWrites {
  readonly items = new Map<number, AttentionItem>();
  readonly others = new Map<string, QueuedWrite>();

  /** The writes to make, each key once; empties the collection. */
  take(): QueuedWrite[] {
    const writes = [...this.others.values()];
    for (const item of this.items.values())
      writes.push({ table: 'items', key: item.id, value: toStoredItem(item) });
    this.clear();
    return writes;
  }

  clear(): void {
    this.items.clear();
    this.others.clear();
  }
}

/** Version of the stored form, in `meta` under `format`. */
export const STORE_FORMAT = 1;

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
  /** Batches whose asynchronous transaction has not yet run its callback, oldest first. */
  private readonly queued: QueuedBatch[] = [];

  atomically<T>(fn: () => T): T {
    // An inner block runs in the outer transaction, not in an LMDB child transaction: no caller
    // catches an inner failure inside an outer block, so the outer aborts whole either way, and a
    // batch of ingested reports saves a child begin and commit per report.
    if (this.depth > 0) return fn();
    this.depth++;
    try {
      return this.root.transactionSync(() => {
        // Batches still waiting for their transaction go first, in order (see `batch`).
        this.absorbQueued();
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
   * once the transaction is committed and flushed to disk.
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
    if (writes.length === 0) return { result, committed: null };
    const entry: QueuedBatch = { writes, written: false };
    this.queued.push(entry);
    const committed = this.root
      .transaction(() => {
        this.writeQueued(entry);
        // Callbacks run in order: the entry is the oldest still queued.
        const at = this.queued.indexOf(entry);
        if (at >= 0) this.queued.splice(at, 1);
      })
      .then(() => {});
    return { result, committed };
  }

  /** Writes the values of every batch still waiting for its transaction, oldest first. */
  private absorbQueued(): void {
    for (const entry of this.queued) this.writeQueued(entry);
    this.queued.length = 0;
  }

  private writeQueued(entry: QueuedBatch): void {
    if (entry.written) return;
    entry.written = true;
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

  item(item: AttentionItem): void {
    // The item as it is when written: at the end of the block inside a transaction.
    if (this.pending) this.pending.items.set(item.id, item);
    else this.now('items', item.id, toStoredItem(item));
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
    // So are the values of batches still waiting for their transaction.
    for (const entry of this.queued) entry.written = true;
    this.queued.length = 0;
    this.root.transactionSync(() => {
      for (const name of TABLE_NAMES) this.tables[name].clearSync();
      this.tables.meta.putSync('format', STORE_FORMAT);
    });
  }

  /** Writes `value` under `key` (`null` removes it): at once, or at the end of the running block. */
  private write(table: TableName, key: string | number, value: unknown): void {
    if (this.pending)
      this.pending.others.set(`${table}\u0000${typeof key}\u0000${key}`, { table, key, value });
    else this.now(table, key, value);
  }

  /** A write outside a block: its own transaction. */
  private now(table: TableName, key: string | number, value: unknown): void {
    if (this.queued.length > 0) {
      // Batches wait for their transaction: they go first, in this one (see `batch`).
      this.root.transactionSync(() => {
        this.absorbQueued();
        this.store(table, key, value);
      });
    } else this.store(table, key, value);
  }

  private store(table: TableName, key: string | number, value: unknown): void {
    if (value === null) this.tables[table].removeSync(key);
    else this.tables[table].putSync(key, value);
  }
}
