import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../../simulators/shared/index.ts';

/**
 * Makes sure `dir` exists and a file can be written in it, creating missing folders one by one
 * (`makeDirs`, which never spins on a path below /proc). Every command calls it for every folder
 * it will write before it starts its work (`verify`, `fuzz` and `certify-plugin` for `--reports`,
 * `simulate` for `--data`), so an unwritable folder is a harness error at once instead of after
 * the whole run (issue 20, item 13). Throws an Error with a one-line reason that starts with
 * `label` (default `reports folder`).
 */
export async function ensureWritableDir(dir: string, label = 'reports folder'): Promise<void> {
  let target: string;
  try {
    target = makeDirs(dir);
  } catch (error) {
    throw new Error(`${label} ${(error as Error).message}`);
  }
  const probe = join(target, `.write-test-${process.pid}-${Date.now()}`);
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw new Error(`${label} ${target} is not writable (${(error as NodeJS.ErrnoException).code})`);
  }
  await rm(probe, { force: true });
}
