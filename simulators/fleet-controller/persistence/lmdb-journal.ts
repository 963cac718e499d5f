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

/** Version of the stored form, in `meta` under `format`. */
export const STORE_FORMAT = 1;

/**
 * `FleetJournal` on LMDB (issue 4, section 1). Every write is synchronous (`putSync` /
 * `removeSync`), so it is committed before the state change can be answered; `atomically` is
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
  private pending: Map<string, { table: TableName; key: string | number; value: () => unknown }> | null =
    null;

  atomically<T>(fn: () => T): T {
    // An inner block runs in the outer transaction, not in an LMDB child transaction: no caller
    // catches an inner failure inside an outer block, so the outer aborts whole either way, and a
    // batch of ingested reports saves a child begin and commit per report.
    if (this.depth > 0) return fn();
    this.depth++;
    try {
      return this.root.transactionSync(() => {
        const pending: NonNullable<typeof this.pending> = new Map();
        this.pending = pending;
        try {
          const result = fn();
          for (const { table, key, value } of pending.values()) this.store(table, key, value());
          return result;
        } finally {
          this.pending = null;
        }
      });
    } finally {
      this.depth--;
    }
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
    this.later('items', item.id, () => toStoredItem(item));
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
    this.root.transactionSync(() => {
      for (const name of TABLE_NAMES) this.tables[name].clearSync();
      this.tables.meta.putSync('format', STORE_FORMAT);
    });
  }

  /** Writes `value` under `key` (`null` removes it): at once, or at the end of the running block. */
  private write(table: TableName, key: string | number, value: unknown): void {
    this.later(table, key, () => value);
  }

  private later(table: TableName, key: string | number, value: () => unknown): void {
    if (this.pending) this.pending.set(`${table}\u0000${typeof key}\u0000${key}`, { table, key, value });
    else this.store(table, key, value());
  }

  private store(table: TableName, key: string | number, value: unknown): void {
    if (value === null) this.tables[table].removeSync(key);
    else this.tables[table].putSync(key, value);
  }
}
