import type { Writable } from 'node:stream';

/**
 * Everything the CLI touches of its process, injected so steps and tests can run it in-process
 * (as cucumber-js does with its IRunEnvironment).
 */
export interface CliIo {
  /** Relative paths in arguments (--target, --reports, --scenario) resolve against this. */
  cwd: string;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Ends long-running commands (`simulate`); absent: SIGINT and SIGTERM of this process do. */
  signal?: AbortSignal;
}
