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
import { ITEM_COUNTS_BYTES, itemCounts, toItemDetails, writeItemCounts } from './stored-item.ts';

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

/** A batch waiting for its transaction; `written` once its values are in a transaction. */
interface QueuedBatch {
  writes: QueuedWrite[];
  written: boolean;
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
    // The counts of the whole block in one buffer, each value a view of its part.
    const counts = Buffer.allocUnsafe(this.items.size * ITEM_COUNTS_BYTES);
    let offset = 0;
    for (const item of this.items.values()) {
      if (this.detailed.has(item.id))
        writes.push({ table: 'items', key: item.id, value: toItemDetails(item) });
      writeItemCounts(item, counts, offset);
      writes.push({
        table: 'itemCounts',
        key: item.id,
        value: counts.subarray(offset, offset + ITEM_COUNTS_BYTES),
      });
      offset += ITEM_COUNTS_BYTES;
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
    else this.now({ table, key, value });
  }

  /** Writes outside a block: their own transaction (one put needs none of its own). */
  private now(...writes: QueuedWrite[]): void {
    if (this.queued.length > 0 || writes.length > 1) {
      // Batches waiting for their transaction go first, in this one (see `batch`).
      this.root.transactionSync(() => {
        this.absorbQueued();
        for (const { table, key, value } of writes) this.store(table, key, value);
      });
    } else for (const { table, key, value } of writes) this.store(table, key, value);
  }

  private store(table: TableName, key: string | number, value: unknown): void {
    if (value === null) this.tables[table].removeSync(key);
    else this.tables[table].putSync(key, value);
  }
}
