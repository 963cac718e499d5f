import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { FleetCounters, FleetSnapshot, StoredLink } from '../model/fleet-journal.ts';
import type {
  AccessTokenRecord,
  Account,
  HistoryRecord,
  PartnerAccess,
  Site,
  SiteRight,
} from '../model/types.ts';
import { DataFormatError } from './data-format-error.ts';
import type { TableName, Tables } from './lmdb-journal.ts';
import { fromStoredItem, type StoredItemDetails } from './stored-item.ts';

/**
 * Reads every record of an initialised database. It runs at start, while the directory lock keeps
 * every other writer out, so the tables read one after another are consistent.
 */
export function readSnapshot(tables: Tables): FleetSnapshot {
  const all = <T>(name: TableName): T[] => [...tables[name].getRange({})].map((entry) => entry.value as T);
  const counters = tables.meta.get('counters') as FleetCounters | undefined;
  if (!counters) throw new DataFormatError('the data directory has no counters record');
  const counts = new Map<number, Uint8Array>();
  for (const { key, value } of tables.itemCounts.getRange({})) counts.set(key as number, value as Uint8Array);
  return {
    partners: all<PartnerAccess>('partners'),
    sites: all<Site>('sites'),
    rights: all<SiteRight>('rights'),
    accounts: all<Account>('accounts'),
    tokens: all<AccessTokenRecord>('tokens'),
    links: all<StoredLink>('links'),
    inventories: all<{ siteId: string; inventory: PbxInventory }>('inventories'),
    // Numeric keys: items in id order, history in seq order.
    items: all<StoredItemDetails>('items').map((details) => fromStoredItem(details, counts.get(details.id))),
    history: all<HistoryRecord>('history'),
    streams: all<{ id: string; seq: number }>('streams'),
    counters,
  };
}
