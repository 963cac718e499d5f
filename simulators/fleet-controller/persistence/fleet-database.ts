import { open, type RootDatabase } from 'lmdb';
import { makeDirs } from '../../shared/make-dirs.ts';
import type { FleetJournal, FleetSnapshot } from '../model/fleet-journal.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { LmdbJournal, STORE_FORMAT, TABLE_NAMES, type Tables } from './lmdb-journal.ts';
import { readSnapshot } from './read-snapshot.ts';

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

/** The directory holds something this simulator cannot read. */
export class DataFormatError extends Error {
  override name = 'DataFormatError';
}

/**
 * Opens (creating it if needed) the embedded LMDB database in `dir` that keeps the controller's
 * state across restarts (issue 4, sections 1 and 5). LMDB is crash-safe by design: a process
 * killed in the middle of a write leaves the last committed transaction. One controller per
 * directory (`data-dir-lock.ts`). Values are stored as JSON.
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
      TABLE_NAMES.map((name) => [name, opened.openDB({ name, encoding: 'json' })]),
    ) as Tables;
    const format = tables.meta.get('format');
    if (format !== undefined && format !== STORE_FORMAT) {
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
