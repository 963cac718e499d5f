import { accessSync, constants, mkdirSync } from 'node:fs';

/** A bench asked for something it cannot do (a bad option or variable): one line, exit 2. */
export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

/** Values that read as an on/off switch: a directory variable given one is a mistake, not a path. */
const SWITCH_WORDS = /^(?:0|1|true|false|yes|no|on|off)$/i;

/**
 * The directory a `--cpu-prof` variable names (`BENCH_FLEET_SCALE_CPU_PROF=DIR`), created and
 * checked writable before anything starts, so a run of minutes never ends without its profiles;
 * `undefined` when unset or empty (no profiles). A switch word (`1`, `true`, …) is refused: the
 * variable names a directory, it is not a switch.
 */
export function cpuProfDir(value: string | undefined, variable: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (SWITCH_WORDS.test(value)) {
    throw new BenchUsageError(
      `${variable} names the directory the --cpu-prof files go to, not a switch (got ${JSON.stringify(value)}); e.g. ${variable}=.tmp/profiles`,
    );
  }
  try {
    mkdirSync(value, { recursive: true });
    accessSync(value, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new BenchUsageError(`${variable}=${JSON.stringify(value)}: cannot write profiles there (${code})`);
  }
  return value;
}
