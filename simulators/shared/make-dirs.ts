import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A folder that cannot be made; `message` is one line naming the level that failed. */
export class MakeDirsError extends Error {
  override name = 'MakeDirsError';
  constructor(
    message: string,
    /** The errno code (`ENOTDIR`, `ENOENT`, `EACCES`, …) or `NOTDIR` when a level is a file. */
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Makes `dir` and every missing folder above it, one plain `mkdir` per missing level, and returns
 * its absolute path. Throws `MakeDirsError` when a level exists but is not a folder, or cannot be
 * made.
 *
 * Not `mkdirSync(dir, { recursive: true })`: on Linux that call loops forever at 100 % CPU for a
 * path below /proc (e.g. `/proc/1/x`: the kernel answers ENOENT for a parent that exists; issue 20,
 * item 13). Walking up to the nearest existing folder first ends after at most one call per level.
 */
export function makeDirs(dir: string): string {
  const target = resolve(dir);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(current).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      // ENOTDIR: a level above is a file; walking up names it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new MakeDirsError(`${target}: ${current}: ${code}`, code);
      const parent = dirname(current);
      if (parent === current) throw new MakeDirsError(`${target}: no existing folder above it`, code);
      missing.unshift(current);
      current = parent;
      continue;
    }
    if (!isDirectory) throw new MakeDirsError(`${target}: ${current} is not a folder`, 'NOTDIR');
    break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      if (code !== 'EEXIST')
        throw new MakeDirsError(`${target} cannot be created (${code} at ${level})`, code);
    }
  }
  return target;
}
