import { readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The lock file in a data directory: the pid of the controller that has it open. */
export const LOCK_FILE = 'controller.lock';

const heldHere = new Set<string>();

/** Another running controller has the data directory open. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/**
 * Takes the data directory for this controller; returns the release function. Two controllers
 * on one directory would each keep their own state in memory and hand out the same ids, so the
 * second one refuses to start. A lock left by a process that no longer runs (killed) is taken
 * over; within this process a directory can be held once at a time.
 */
export function lockDataDir(dir: string): () => void {
  const real = realpathSync(dir);
  const path = join(real, LOCK_FILE);
  if (heldHere.has(real))
    throw new DataDirInUseError(`data directory ${dir} is already open in this process`);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = readOwner(path);
      if (owner !== null && owner !== process.pid && isRunning(owner)) {
        throw new DataDirInUseError(
          `data directory ${dir} is in use by process ${owner} (remove ${LOCK_FILE} if it is not a controller)`,
        );
      }
      unlinkSync(path);
    }
  }
  heldHere.add(real);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(real);
    try {
      if (readOwner(path) === process.pid) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

function readOwner(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
