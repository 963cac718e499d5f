import { open, type RootDatabase } from 'lmdb';
import { makeDirs } from '../../shared/make-dirs.ts';
import type { FleetJournal, FleetSnapshot } from '../model/fleet-journal.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { DataFormatError } from './data-format-error.ts';
import { LmdbJournal, STORE_FORMAT, TABLE_ENCODING, TABLE_NAMES, type Tables } from './lmdb-journal.ts';
import { readSnapshot } from './read-snapshot.ts';
import { type StoredItemV1, splitItemV1 } from './stored-item.ts';

export { DataFormatError };

/** A controller's data directory, open (docs/fleet-controller.md, "Persistence"). */
export interface FleetDatabase {
  readonly dir: string;
  /** Where `FleetState` writes every change. */
  readonly journal: FleetJournal;
  /** What the directory holds, or `null` for a new directory (the fixture is loaded and written). */
  read(): FleetSnapshot | null;
  /** Waits for outstanding writes, closes the environment and releases the directory. */
  close(): Promise<void>;
}

/**
 * Opens (creating it if needed) the embedded LMDB database in `dir` that keeps the controller's
 * state across restarts (issue 4, sections 1 and 5). LMDB is crash-safe by design: a process
 * killed in the middle of a write leaves the last committed transaction. One controller per
 * directory (`data-dir-lock.ts`). Values are stored as JSON, but for the items' counts
 * (`stored-item.ts`). A directory of store format 1, which an earlier version wrote, is migrated
 * to format 2 in one transaction when it is opened (its items split into details and counts;
 * nothing else changed); one of a format this version does not know is refused, untouched, with
 * a `DataFormatError`.
 */
export async function openFleetDatabase(dir: string): Promise<FleetDatabase> {
  makeDirs(dir);
  const release = lockDataDir(dir);
  let root: RootDatabase | undefined;
  try {
    // No event-turn batching: the journal names every transaction itself, and with it a failed
    // commit also rejects a promise of lmdb's own that nothing can handle (an unhandled rejection
    // that would end the process).
    root = open({ path: dir, maxDbs: TABLE_NAMES.length + 4, encoding: 'json', eventTurnBatching: false });
    const opened = root;
    const tables = Object.fromEntries(
      TABLE_NAMES.map((name) => [name, opened.openDB({ name, encoding: TABLE_ENCODING(name) })]),
    ) as Tables;
    const format = tables.meta.get('format');
    if (format === 1) migrateFromFormat1(opened, tables);
    else if (format !== undefined && format !== STORE_FORMAT) {
      throw new DataFormatError(
        `data directory ${dir} has store format ${String(format)}, expected ${STORE_FORMAT}`,
      );
    }
    return {
      dir,
      journal: new LmdbJournal(opened, tables),
      read: () => (tables.meta.get('format') === undefined ? null : readSnapshot(tables)),
      async close() {
        try {
          await opened.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    await root?.close().catch(() => {});
    release();
    throw error;
  }
}

/**
 * Store format 1 kept each item as one JSON record, rewritten whole on every merge; format 2 keeps
 * its details and its counts apart (issue 31 §3). Everything else is as it was. One transaction:
 * a crash in the middle leaves format 1, migrated again at the next start.
 */
function migrateFromFormat1(root: RootDatabase, tables: Tables): void {
  root.transactionSync(() => {
    const old = [...tables.items.getRange({})].map((entry) => entry.value as StoredItemV1);
    for (const stored of old) {
      const { details, counts } = splitItemV1(stored);
      tables.items.putSync(details.id, details);
      tables.itemCounts.putSync(details.id, counts);
    }
    tables.meta.putSync('format', STORE_FORMAT);
  });
}
