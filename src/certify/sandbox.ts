import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, resolve, sep } from 'node:path';

/**
 * The protections of a sealed plug-in run (issue 28 §4; docs/certify-plugin.md, "A sealed run").
 * `environment` and `no-control-plane` hold on every machine; the other three need bubblewrap.
 */
export const PROTECTIONS = {
  environment:
    'a cleared environment: PATH, the locale variables, TZ and the run’s own HOME and temp folders only',
  'read-only-filesystem':
    'a read-only view of the file system (the project folder and the home folder included)',
  'fresh-temp-folders': 'a fresh tmpfs per run for /tmp, /var/tmp and HOME: no write outlives the run',
  'pid-namespace': 'a PID namespace that ends with the run: no child the plug-in starts outlives it',
  'no-control-plane':
    'no control listener: the harness drives the scenario’s PBX in-process, so there is none to find',
} as const;

export type ProtectionName = keyof typeof PROTECTIONS;

/** What bubblewrap gives; absent wherever the plug-in runs unsealed. */
const NEEDS_BWRAP: ReadonlySet<ProtectionName> = new Set([
  'read-only-filesystem',
  'fresh-temp-folders',
  'pid-namespace',
]);

/** How sealed a certification's plug-in runs were: part of every report and certificate. */
export interface SandboxReport {
  /** Every protection present. */
  sealed: boolean;
  /** The sandbox tool as it names itself (`bubblewrap 0.8.0`), `null` when none could run. */
  tool: string | null;
  /** Why the runs are not sealed (bubblewrap missing, not permitted, switched off). */
  reason?: string;
  protections: { name: ProtectionName; present: boolean; description: string }[];
}

/**
 * The variable that names the bubblewrap executable (default `bwrap`, looked up in PATH). `none`
 * runs every plug-in unsealed, and the report says so.
 */
export const BWRAP_VARIABLE = 'PBX_CONFORMANCE_BWRAP';

/** Inside the sandbox: the run's temp folder and its HOME (each a fresh tmpfs). */
export const SANDBOX_TMP = '/tmp';
export const SANDBOX_HOME = '/tmp/home';
/** Fixed-path folders that get a fresh tmpfs too, so that a cache there cannot carry an answer over. */
const FRESH_FOLDERS = ['/tmp', '/var/tmp'] as const;

/** The variables a plug-in run keeps of the harness's environment (besides its own folders). */
const KEPT = /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ)$/;

/** The run's own folders, one value per variable. */
export type RunFolders = Record<
  'TMPDIR' | 'TMP' | 'TEMP' | 'HOME' | 'XDG_CACHE_HOME' | 'XDG_STATE_HOME',
  string
>;

/**
 * The cleared environment of one plug-in run: PATH, the locale variables and TZ of `base` (the
 * harness's environment with the run's own locale, if any), and the run's folders; nothing else of
 * the harness (a CI secret, the fleet secret) reaches the plug-in.
 */
export function runEnvironment(base: NodeJS.ProcessEnv, folders: RunFolders): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base))
    if (KEPT.test(name) && value !== undefined) env[name] = value;
  env['PATH'] ??= '/usr/local/bin:/usr/bin:/bin';
  return { ...env, ...folders };
}

/** The run's folders inside the sandbox. */
export function sandboxFolders(): RunFolders {
  return {
    TMPDIR: SANDBOX_TMP,
    TMP: SANDBOX_TMP,
    TEMP: SANDBOX_TMP,
    HOME: SANDBOX_HOME,
    XDG_CACHE_HOME: `${SANDBOX_HOME}/.cache`,
    XDG_STATE_HOME: `${SANDBOX_HOME}/.local/state`,
  };
}

/** What to spawn for one sealed run. */
export interface SealedCommand {
  file: string;
  args: string[];
}

/** A probed sandbox: its report, and how it wraps a run (only when sealed). */
export interface Sandbox {
  report: SandboxReport;
  /**
   * The bubblewrap command that runs `argv` sealed in `cwd` with `env` (set with `--setenv` after
   * `--clearenv`); `null` when the runs are not sealed. `visible`: paths the run must read that lie
   * under a fresh folder (the plug-in's own folder in /tmp), bound back read-only.
   */
  wrap(
    argv: readonly string[],
    options: { cwd: string; env: Record<string, string>; visible?: string[] },
  ): SealedCommand | null;
}

/**
 * Probes once per certification whether bubblewrap is there and permitted: `bwrap --version`, then
 * a sealed `sh -c 'exit 0'` with the very options every run gets. Never throws: a missing or
 * refused bubblewrap gives a report that says "not sealed", the reason, and each absent protection.
 */
export async function probeSandbox(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  const named = env[BWRAP_VARIABLE]?.trim();
  if (named === 'none') return unsealed(`${BWRAP_VARIABLE}=none: the runs are not sealed`);
  const bwrap = named || 'bwrap';
  const version = await quickRun(bwrap, ['--version'], env);
  if (version.error !== null || version.code !== 0)
    return unsealed(
      `bubblewrap (${bwrap}) cannot be run: ${version.error ?? (firstLine(version.stderr) || `exit ${version.code}`)}`,
    );
  const tool = firstLine(version.stdout) || 'bubblewrap';
  const probeEnv = runEnvironment(env, sandboxFolders());
  const probe = await quickRun(bwrap, bwrapArgs(['sh', '-c', 'exit 0'], { cwd: '/', env: probeEnv }), env);
  if (probe.error !== null || probe.code !== 0)
    return unsealed(
      `${tool} is not permitted here: ${probe.error ?? (firstLine(probe.stderr) || `exit ${probe.code}`)}`,
      tool,
    );
  return {
    report: {
      sealed: true,
      tool,
      protections: protections(() => true),
    },
    wrap: (argv, options) => ({ file: bwrap, args: bwrapArgs(argv, options) }),
  };
}

function unsealed(reason: string, tool: string | null = null): Sandbox {
  return {
    report: { sealed: false, tool, reason, protections: protections((name) => !NEEDS_BWRAP.has(name)) },
    wrap: () => null,
  };
}

function protections(present: (name: ProtectionName) => boolean): SandboxReport['protections'] {
  return (Object.keys(PROTECTIONS) as ProtectionName[]).map((name) => ({
    name,
    present: present(name),
    description: PROTECTIONS[name],
  }));
}

/** The protections a report lists as absent, e.g. for "not sealed: …" lines. */
export function absentProtections(report: SandboxReport): ProtectionName[] {
  return report.protections.filter((p) => !p.present).map((p) => p.name);
}

/**
 * bubblewrap's options for one run: the host's file system read-only (`/` bound read-only, with a
 * fresh /dev and a /proc of the run's own PID namespace, so no other process's environment can be
 * read), a fresh tmpfs on /tmp, /var/tmp and the run's HOME, the paths the run must read bound back
 * read-only where a fresh folder hides them, a PID namespace whose processes all die with the run
 * (`--unshare-pid`: when the plug-in ends, its namespace ends, detached children included;
 * `--die-with-parent`: when the harness ends, the run ends), no capabilities, a new session (no
 * terminal to type into), the host network (the PBX's faces on loopback stay reachable), and the
 * cleared environment.
 */
export function bwrapArgs(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string>; visible?: string[] },
): string[] {
  const home = options.env['HOME'] ?? SANDBOX_HOME;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const folder of [...FRESH_FOLDERS, home]) args.push('--tmpfs', folder);
  for (const path of boundBack(
    [options.cwd, ...executablePaths(argv, options), ...(options.visible ?? [])],
    home,
  ))
    args.push('--ro-bind', path, path);
  for (const name of ['XDG_CACHE_HOME', 'XDG_STATE_HOME']) {
    const dir = options.env[name];
    if (dir?.startsWith(`${home}/`)) args.push('--dir', dir);
  }
  args.push('--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv');
  for (const [name, value] of Object.entries(options.env)) args.push('--setenv', name, value);
  args.push('--chdir', options.cwd, '--', ...argv);
  return args;
}

/**
 * The folders the run reads its code from: the plug-in's executable (a path, or its folder in
 * PATH) and any absolute path among its arguments (a script given to an interpreter), as folders.
 */
function executablePaths(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): string[] {
  const [file, ...args] = argv;
  const paths: string[] = [];
  if (file !== undefined) {
    if (file.includes('/')) paths.push(isAbsolute(file) ? file : resolve(options.cwd, file));
    else paths.push(...(options.env['PATH'] ?? '').split(delimiter).filter((dir) => isAbsolute(dir)));
  }
  for (const word of args) if (isAbsolute(word) && existsSync(word)) paths.push(word);
  return paths.map((path) => (isDirectory(path) ? path : dirname(path)));
}

/** The paths that lie under a fresh folder, outermost only (a path inside another is bound with it). */
function boundBack(paths: string[], home: string): string[] {
  const fresh = [...FRESH_FOLDERS, home];
  const under = paths
    .map((path) => resolve(path))
    .filter((path) => existsSync(path) && fresh.some((f) => path === f || path.startsWith(`${f}${sep}`)));
  const sorted = [...new Set(under)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const path of sorted)
    if (!kept.some((k) => path === k || path.startsWith(`${k}${sep}`))) kept.push(path);
  return kept;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

/** Runs a short command (at most 10 s) with the harness's PATH; never rejects. */
function quickRun(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; error: string | null }> {
  return new Promise((done) => {
    const child = spawn(file, args, {
      cwd: '/',
      env: { PATH: env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 4096) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      done({ code: null, stdout, stderr, error: error.code === 'ENOENT' ? 'not found' : error.message }),
    );
    child.on('close', (code, signal) =>
      done({ code, stdout, stderr, error: signal ? `ended by ${signal} (timeout)` : null }),
    );
  });
}

/** Where a run's folder lies for the evidence: the sandbox's own paths. */
export const SANDBOX_NOTE = `sealed (bubblewrap): fresh tmpfs at ${FRESH_FOLDERS.join(', ')} and HOME=${SANDBOX_HOME}, / read-only, own PID namespace, cleared environment`;
