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

/** Commander parser for a percentage from 0 to 100 (decimals allowed). */
export function parsePercent(value: string): number {
  if (!/^\d{1,3}(\.\d+)?$/.test(value) || Number(value) > 100) {
    throw new InvalidArgumentError('expected a percentage from 0 to 100');
  }
  return Number(value);
}

/** Commander parser for a repeat count (1 to 100). */
export function parseRepeat(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100) {
    throw new InvalidArgumentError('expected 1 to 100 runs');
  }
  return Number(value);
}
