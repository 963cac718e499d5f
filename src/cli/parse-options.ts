import { InvalidArgumentError } from 'commander';

/** Commander parser for a TCP port (0 = any free port). */
export function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535');
  }
  return Number(value);
}

/** Commander parser for a worker count. */
export function parseWorkerCount(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) > 64)
    throw new InvalidArgumentError('expected 0 to 64 workers');
  return Number(value);
}
