import { PassThrough } from 'node:stream';
import type { CliIo } from '../../../src/cli/cli-io.ts';

/** An in-memory CliIo: what the command wrote to stdout and stderr. */
export function captureIo(
  cwd: string,
  extra: Partial<CliIo> = {},
): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return {
    cwd,
    stdout,
    stderr,
    env: {},
    ...extra,
    out: () => Buffer.concat(out).toString('utf8'),
    err: () => Buffer.concat(err).toString('utf8'),
  };
}
