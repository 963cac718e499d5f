import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * Makes sure `dir` exists and a file can be written in it, creating missing folders one by one.
 * `verify` calls it before the first scenario, so an unwritable `--reports` folder is a harness
 * error at once instead of after the whole run. Throws an Error with a one-line reason.
 *
 * Kept by hand instead of `mkdir(dir, { recursive: true })`: on Linux that call loops forever at
 * 100 % CPU for a path below /proc (e.g. `/proc/nope`: the kernel answers ENOENT for a parent
 * that exists), which is how `--reports /proc/nope` used to hang. Walking up to the nearest
 * existing folder and creating each missing level with a plain `mkdir` ends after at most one
 * call per path level.
 */
export async function ensureWritableDir(dir: string): Promise<void> {
  const target = resolve(dir);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => error);
    if (!(info instanceof Error)) {
      if (!info.isDirectory()) throw new Error(`reports folder ${target}: ${current} is not a folder`);
      break;
    }
    if (info.code !== 'ENOENT') throw new Error(`reports folder ${target}: ${current}: ${info.code}`);
    const parent = dirname(current);
    if (parent === current) throw new Error(`reports folder ${target}: no existing folder above it`);
    missing.unshift(current);
    current = parent;
  }
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new Error(`reports folder ${target} cannot be created (${code} at ${level})`);
    }
  }
  const probe = join(target, `.write-test-${process.pid}-${Date.now()}`);
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw new Error(`reports folder ${target} is not writable (${(error as NodeJS.ErrnoException).code})`);
  }
  await rm(probe, { force: true });
}
