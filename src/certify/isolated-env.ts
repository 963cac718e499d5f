import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PluginRun, runPlugin } from './run-plugin.ts';
import { type RunFolders, runEnvironment, SANDBOX_NOTE, type Sandbox, sandboxFolders } from './sandbox.ts';

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
  /** The run's cleared environment (sandbox.ts, `runEnvironment`) with the isolated folders set. */
  env: Record<string, string>;
  /** The folder each variable points to. */
  folders: RunFolders;
  /** Removes every folder, whatever the plug-in left in them. */
  remove(): Promise<void>;
}

/**
 * Fresh, empty temp, home, cache and state folders on the host for one unsealed plug-in run
 * (docs/certify-plugin.md, "Isolated runs"): a plug-in that caches its answer in the temp folder,
 * its home or its XDG cache or state folder cannot carry an answer from one scenario into the next.
 * `TMPDIR`, `TMP` and `TEMP` share one folder (tools pick whichever they know). A cache at a fixed
 * absolute path cannot be isolated this way (a sealed run's fresh /var/tmp and /tmp can): the
 * served-truth checks catch it (PLUGIN-FIGURES-FOLLOW-SERVED).
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
    env: runEnvironment(base, folders),
    folders,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

export interface IsolatedRunOptions {
  argv: string[];
  cwd: string;
  /** The harness's environment with the run's own additions (a locale); cleared before the run. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** The certification's sandbox (sandbox.ts, `probeSandbox`). */
  sandbox: Sandbox;
  /** Paths the run reads besides its command (the runner of `--mkp` and the package). */
  visible?: string[];
}

/**
 * One plug-in run in a cleared environment with folders of its own: sealed in bubblewrap where the
 * certification's sandbox is (issue 28 §4: read-only file system, fresh tmpfs for /tmp, /var/tmp
 * and HOME, a PID namespace that ends with the run), else with fresh host folders, removed
 * afterwards. A sealed plug-in that died by a signal is reported so: bubblewrap passes it on as
 * exit code 128 + the signal's number.
 */
export async function isolatedRun(
  options: IsolatedRunOptions,
): Promise<{ run: PluginRun; notes: Record<string, unknown> }> {
  const env = runEnvironment(options.env, sandboxFolders());
  const sealed = options.sandbox.wrap(options.argv, {
    cwd: options.cwd,
    env,
    ...(options.visible ? { visible: options.visible } : {}),
  });
  if (sealed) {
    const run = await runPlugin({
      argv: [sealed.file, ...sealed.args],
      cwd: options.cwd,
      env: { PATH: env['PATH'] ?? '/usr/bin:/bin' },
      timeoutMs: options.timeoutMs,
    });
    return { run: signalOfExitCode(run), notes: { isolated: SANDBOX_NOTE } };
  }
  const isolated = await isolatedEnv(options.env);
  try {
    const run = await runPlugin({
      argv: options.argv,
      cwd: options.cwd,
      env: isolated.env,
      timeoutMs: options.timeoutMs,
    });
    return {
      run,
      notes: {
        isolated:
          'not sealed: cleared environment, fresh TMPDIR/TMP/TEMP, HOME, XDG_CACHE_HOME, XDG_STATE_HOME',
      },
    };
  } finally {
    await isolated.remove();
  }
}

const SIGNAL_NAMES = new Map(
  Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/** Exit code 128 + n from bubblewrap: the plug-in died by signal n. */
function signalOfExitCode(run: PluginRun): PluginRun {
  if (run.exitCode === null || run.exitCode <= 128) return run;
  const signal = SIGNAL_NAMES.get(run.exitCode - 128);
  return signal ? { ...run, exitCode: null, signal } : run;
}
