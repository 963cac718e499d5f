import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** What one run of the plug-in gave. */
export interface PluginRun {
  /** `null` when the process died by a signal or did not start. */
  exitCode: number | null;
  /** The signal that ended it, e.g. `SIGSEGV`; `SIGKILL` after a timeout. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run was ended by the harness after `timeoutMs`. */
  timedOut: boolean;
  /** Bytes written to stdout and stderr in all, counted past what was captured (PLUGIN-OUTPUT-SIZE). */
  outputBytes: number;
  durationMs: number;
}

export interface RunPluginOptions {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Output kept per stream; a plug-in that prints more is cut (and the cut is marked). */
export const MAX_CAPTURED_BYTES = 64 * 1024;

/**
 * How long the output may stay open after the plug-in's own process ended: a child it left behind
 * that holds stdout or stderr (outside a sandbox, where nothing ends it) does not hold the run.
 */
const OUTPUT_GRACE_MS = 1_000;

/**
 * Runs the plug-in once, without a shell: its own process group (so the harness can end it and
 * everything it started), stdin closed, stdout and stderr captured up to {@link MAX_CAPTURED_BYTES}.
 * At `timeoutMs` the whole process group gets SIGKILL. The run ends when the process ended and its
 * output closed, or {@link OUTPUT_GRACE_MS} after the process ended while a child left behind still
 * holds the output. Never rejects for the plug-in's sake; a plug-in that cannot be started is a
 * harness problem and rejects.
 */
export function runPlugin(options: RunPluginOptions): Promise<PluginRun> {
  const [file, ...args] = options.argv;
  if (file === undefined) return Promise.reject(new Error('empty plug-in command'));
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      shell: false,
    });
    const out = capture();
    const err = capture();
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    let timedOut = false;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      clearTimeout(grace);
      // Children the plug-in left behind in its group do not outlive the run.
      killGroup();
      if (settled) return;
      settled = true;
      resolvePromise({
        exitCode: code,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        outputBytes: out.total() + err.total(),
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on('error', (error) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(error);
    });
    child.on('exit', (code, signal) => {
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, OUTPUT_GRACE_MS);
    });
    child.on('close', finish);
  });
}

function capture(): { add: (chunk: Buffer) => void; text: () => string; total: () => number } {
  const chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  let cut = false;
  return {
    total: () => total,
    add: (chunk: Buffer) => {
      total += chunk.length;
      if (size >= MAX_CAPTURED_BYTES) {
        cut = true;
        return;
      }
      const part = chunk.subarray(0, MAX_CAPTURED_BYTES - size);
      if (part.length < chunk.length) cut = true;
      chunks.push(part);
      size += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8') + (cut ? '\n[… output cut by the harness]' : ''),
  };
}

/**
 * The executable the command names, checked before any scenario runs: a path (with a `/`) is
 * resolved against `cwd`, a bare name is looked up in `PATH`. Returns a one-line reason when it
 * cannot be run, else `null`.
 */
export function executableProblem(file: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const candidates = file.includes('/')
    ? [isAbsolute(file) ? file : resolve(cwd, file)]
    : (env['PATH'] ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, file));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return null;
    } catch {
      // Try the next one.
    }
  }
  return file.includes('/')
    ? `plug-in not found or not executable: ${file}`
    : `plug-in not found in PATH: ${file}`;
}
