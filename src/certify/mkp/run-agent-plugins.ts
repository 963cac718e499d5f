import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runEnvironment, type Sandbox, sandboxFolders } from '../sandbox.ts';

/**
 * The Python side of `certify-plugin --mkp`: the stand-in for `cmk.agent_based.v2` and the runner
 * (`python/` in the repository, `dist/python/` in the package).
 */
export const PYTHON_DIR = fileURLToPath(new URL('../../../python/', import.meta.url));
export const RUNNER_SCRIPT = `${PYTHON_DIR}run_agent_plugins.py`;

/** An exception a plug-in raised, as the runner reports it. */
export interface PluginError {
  phase: 'import' | 'parse' | 'discovery' | 'check';
  module?: string;
  section?: string;
  plugin?: string;
  item?: string | null;
  type: string;
  message: string;
  /** The rule an API misuse touches (`result-text`, `metric-name`, `api`), else null. */
  apiRule: string | null;
  traceback: string;
}

export interface MetricRecord {
  name: string;
  value: number;
  levels: [number | null, number | null];
  boundaries: [number | null, number | null];
}

export interface ServiceRecord {
  plugin: string;
  item: string | null;
  name: string;
  /** Worst state of its results; null: no result. */
  state: 0 | 1 | 2 | 3 | null;
  /** The check yielded IgnoreResults or raised IgnoreResultsError (the service goes stale). */
  ignored: boolean;
  error: PluginError | null;
  results: { state: number; summary: string; details: string }[];
  metrics: MetricRecord[];
}

export interface Comparable {
  state: number | null;
  results: string[];
  metrics: [string, number][];
}

export interface MalformedFinding {
  section: string;
  fieldsReplaced: number;
  plugins: string[];
  raised: PluginError | null;
  /** Services whose outcome differs from the well-formed text's (absent when it raised). */
  changed?: { service: string; wellFormed: Comparable | null; malformed: Comparable | null }[];
}

export interface TextRun {
  label: string;
  sectionsServed: string[];
  sectionsParsed: string[];
  errors: PluginError[];
  services: ServiceRecord[];
  discoveryRepeat?: { same: boolean; first: string[]; second: string[] };
  missingItem?: ServiceRecord[];
  malformed?: MalformedFinding[];
  printed?: string;
}

export interface RunnerOutcome {
  load: {
    errors: PluginError[];
    problems: string[];
    sections: string[];
    checks: { name: string; serviceName: string; sections: string[]; runnable: boolean }[];
    skipped: { snmpSections: number; inventoryPlugins: number };
  };
  runs: TextRun[];
}

export interface RunnerRequest {
  pluginsDir: string;
  /** Epoch seconds `time.time()` returns inside the plug-ins. */
  now: number;
  texts: { label: string; text: string }[];
  probes: { malformed?: boolean; missingItem?: boolean; discoverTwice?: boolean };
  timeoutMs: number;
  /**
   * The certification's sandbox (src/certify/sandbox.ts): the runner imports the package's code,
   * so it runs sealed like a command plug-in wherever the machine permits it (issue 28 §4).
   */
  sandbox?: Sandbox;
}

/** The runner's end when it gave no outcome: it hung (timeout) or died. */
export class RunnerFailure extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'RunnerFailure';
  }
}

/** Whether a `python3` (3.10 or newer: the stand-in uses its syntax) can run the stand-in. */
export function pythonProblem(): string | null {
  const probe = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 10))'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.error || probe.status !== 0)
    return 'certify-plugin --mkp needs python3 (3.10 or newer) on the PATH to run agent-based plug-ins';
  if (probe.stdout.trim() !== 'True') return 'certify-plugin --mkp needs python3 3.10 or newer';
  return null;
}

const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Runs the package's plug-ins on the given agent texts in one fresh Python process (`-I`: no
 * user site, no PYTHON* variables, so nothing of the machine's Python shadows the stand-in; an
 * environment of its own: PATH, `LC_ALL=C.UTF-8`, `TZ=UTC`), sealed in the certification's
 * sandbox where it has one (read-only file system, fresh /tmp, /var/tmp and HOME, a PID namespace
 * that ends with the runner).
 * Rejects with {@link RunnerFailure} when the process hangs past `timeoutMs` or ends without an
 * outcome (a plug-in that kills its interpreter); a plug-in's exceptions are part of the outcome.
 */
export function runAgentPlugins(request: RunnerRequest): Promise<RunnerOutcome> {
  const { timeoutMs, sandbox, ...body } = request;
  // The same time zone and locale on every machine, so render.datetime() and the like repeat.
  const plain = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', TZ: 'UTC' };
  const argv = ['python3', '-I', '-B', RUNNER_SCRIPT];
  const sealed = sandbox?.wrap(argv, {
    cwd: '/',
    env: runEnvironment(plain, sandboxFolders()),
    visible: [PYTHON_DIR, request.pluginsDir],
  });
  const [file, ...args] = sealed ? [sealed.file, ...sealed.args] : argv;
  return new Promise((resolve, reject) => {
    const child = spawn(file as string, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: sealed ? { PATH: plain.PATH } : { ...plain, PYTHONDONTWRITEBYTECODE: '1' },
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) kill();
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.reduce((n, b) => n + b.length, 0) < 64 * 1024) err.push(chunk);
    });
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) {
        reject(new RunnerFailure(`the plug-ins did not finish within ${timeoutMs} ms`, true, stderr));
        return;
      }
      const text = Buffer.concat(out).toString('utf8');
      try {
        if (code !== 0) throw new Error(`exit ${code ?? signal}`);
        resolve(JSON.parse(text) as RunnerOutcome);
      } catch {
        const tail = stderr.trim().split('\n').slice(-3).join(' ');
        reject(
          new RunnerFailure(
            `the runner ended without an outcome (exit ${code ?? signal})${tail ? `: ${tail}` : ''}`,
            false,
            stderr,
          ),
        );
      }
    });
    child.stdin.end(JSON.stringify(body));
  });
}
