import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variables each plug-in run gets fresh, empty folders for. */
export const ISOLATED_VARIABLES = [
  'TMPDIR',
  'TMP',
  'TEMP',
  'HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
] as const;

export interface IsolatedEnv {
  /** The caller's environment with the isolated folders set. */
  env: NodeJS.ProcessEnv;
  /** The folder each variable points to. */
  folders: Record<(typeof ISOLATED_VARIABLES)[number], string>;
  /** Removes every folder, whatever the plug-in left in them. */
  remove(): Promise<void>;
}

/**
 * Fresh, empty temp, home, cache and state folders for one plug-in run (docs/certify-plugin.md,
 * "Isolated runs"): a plug-in that caches its answer in the temp folder, its home or its XDG
 * cache or state folder cannot carry an answer from one scenario into the next. `TMPDIR`, `TMP`
 * and `TEMP` share one folder (tools pick whichever they know). A cache at a fixed absolute path
 * cannot be isolated this way: the served-truth checks catch it (PLUGIN-FIGURES-FOLLOW-SERVED).
 */
export async function isolatedEnv(base: NodeJS.ProcessEnv): Promise<IsolatedEnv> {
  const root = await mkdtemp(join(tmpdir(), 'pbx-certify-run-'));
  const tmp = join(root, 'tmp');
  const home = join(root, 'home');
  const cache = join(root, 'home', '.cache');
  const state = join(root, 'home', '.local', 'state');
  await Promise.all([tmp, cache, state].map((dir) => mkdir(dir, { recursive: true })));
  const folders = {
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    HOME: home,
    XDG_CACHE_HOME: cache,
    XDG_STATE_HOME: state,
  };
  return {
    env: { ...base, ...folders },
    folders,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}
