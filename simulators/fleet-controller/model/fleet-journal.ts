import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type {
  AccessTokenRecord,
  Account,
  AttentionItem,
  HistoryRecord,
  IngestStats,
  PartnerAccess,
  Site,
  SiteRight,
} from './types.ts';

/** Counters that must survive a restart so ids stay unique (FLEET-ITEM-ID-STABLE). */
export interface FleetCounters {
  /** The id the next new attention item gets. */
  nextItemId: number;
  /** The `seq` of the last history record written. */
  historySeq: number;
  stats: IngestStats;
  /** Controller clock at the write; a restarted controller's clock resumes no earlier. */
  clockAt: number;
}

/** What changed in an item since it was last written: everything, or only its per-merge counts. */
export type ItemChange = 'all' | 'counts';

/** A site's PBX registration as kept across restarts; live connections are not kept. */
export interface StoredLink {
  siteId: string;
  keySha256: string;
  cut: boolean;
}

/** Everything a restarted controller gets back (docs/fleet-controller.md, "Persistence"). */
export interface FleetSnapshot {
  partners: PartnerAccess[];
  sites: Site[];
  rights: SiteRight[];
  accounts: Account[];
  tokens: AccessTokenRecord[];
  links: StoredLink[];
  inventories: { siteId: string; inventory: PbxInventory }[];
  items: AttentionItem[];
  /** In `seq` order. */
  history: HistoryRecord[];
  streams: { id: string; seq: number }[];
  counters: FleetCounters;
}

/**
 * Where `FleetState` writes every change as it makes it (issue 4, sections 1 and 5). The in-memory
 * default writes nothing; `persistence/lmdb-journal.ts` writes to an embedded LMDB database.
 *
 * Each call writes the value given (the current one); `null` removes the record. A call outside
 * `atomically` is its own transaction; inside, all calls of `fn` commit together or not at all,
 * so an acknowledgement is never stored without its history entry, nor an item merge without the
 * counters and stream position that go with it.
 */
export interface FleetJournal {
  atomically<T>(fn: () => T): T;
  /**
   * Like `atomically`, but the transaction may commit after this returns (issue 31 §3: a batch of
   * ingested lines): `committed` settles once everything `fn` wrote is durable, or is `null` when it
   * already is. Whatever is written later, by a batch or by `atomically`, never commits before it,
   * nor is overwritten by it: the journal keeps the order in which the writes were made. When the
   * transaction does not commit (a full disk), `committed` rejects and the journal writes those
   * values with its next transaction, where nothing later has replaced them.
   */
  batch<T>(fn: () => T): { result: T; committed: Promise<void> | null };
  partner(partner: PartnerAccess): void;
  site(site: Site): void;
  right(partnerId: string, siteId: string, right: SiteRight | null): void;
  account(account: Account): void;
  token(id: string, token: AccessTokenRecord | null): void;
  link(siteId: string, link: StoredLink | null): void;
  inventory(siteId: string, inventory: PbxInventory | null): void;
  /**
   * The item as it is now. `counts` says that only its per-merge fields changed since it was last
   * written (`firstAt`, `lastAt`, `occurrences`, `suppressed`, `severity`: a merge that changed no
   * description, module id or acknowledgement), so a store may write just those (issue 31 §3).
   */
  item(item: AttentionItem, changed?: ItemChange): void;
  history(record: HistoryRecord): void;
  stream(id: string, seq: number | null): void;
  counters(counters: FleetCounters): void;
  /** Removes every record (the control plane's reset reloads the fixture after it). */
  clear(): void;
}

/** The default: state lives in memory only. */
export const MEMORY_JOURNAL: FleetJournal = {
  atomically: (fn) => fn(),
  batch: (fn) => ({ result: fn(), committed: null }),
  partner: () => {},
  site: () => {},
  right: () => {},
  account: () => {},
  token: () => {},
  link: () => {},
  inventory: () => {},
  item: () => {},
  history: () => {},
  stream: () => {},
  counters: () => {},
  clear: () => {},
};
