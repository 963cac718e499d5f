import { spawnSync } from 'node:child_process';

/** Whether `command --version` runs: the tests that need the system `tar` or `python3` skip without it. */
export function hasCommand(command: string): boolean {
  const result = spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 10_000 });
  return result.status === 0;
}

/** Runs `command` with `input` on stdin; throws with its stderr when it fails. */
export function run(command: string, args: string[], input?: Buffer | string, cwd?: string): Buffer {
  const result = spawnSync(command, args, {
    input,
    cwd,
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', LC_ALL: 'C' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.toString('utf8')}`,
    );
  }
  return result.stdout;
}
