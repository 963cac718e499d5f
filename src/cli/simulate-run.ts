import { spawn } from 'node:child_process';
import { HarnessError } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';

/** Exit code when the command could not be started or died of a signal. */
const COMMAND_FAILED = 1;

/**
 * `simulate … -- <command…>`: runs the command (no shell; stdio inherited from the CLI's own
 * streams) while the simulator listens, and resolves with its exit code. A signal to the simulator
 * (SIGINT, SIGTERM, or `stop`) is passed on to the command, and the simulator stops only after the
 * command has ended: neither outlives the other, so a CI job can neither leak the simulator
 * nor race on a stale target file (issue 20).
 */
export function runWhileSimulating(
  command: readonly string[],
  io: CliIo,
  stop: Promise<void>,
): Promise<number> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: io.cwd, env: io.env, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    let ended = false;
    void stop.then(() => {
      if (!ended) child.kill('SIGTERM');
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      ended = true;
      reject(
        new HarnessError(
          error.code === 'ENOENT'
            ? `command not found: ${file}`
            : `command ${file} did not start: ${error.message}`,
        ),
      );
    });
    child.once('close', (code) => {
      ended = true;
      resolve(code ?? COMMAND_FAILED);
    });
  });
}
