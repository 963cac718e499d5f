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

/**
 * The whole numbers of a variable or option that takes a count or milliseconds (`1000,10000` where
 * `list`), each at least `min`; `undefined` when unset. Anything else (`1e5`, `ten`, `-1`, an
 * empty item, a missing option value) is refused with one line before a fleet starts: `Number`
 * alone would have read `ten` as NaN and run a bench of nothing, or `''` as 0.
 */
export function wholeNumbers(
  raw: string | undefined,
  name: string,
  { min, list = false }: { min: number; list?: boolean },
): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = list ? raw.split(',') : [raw];
  return items.map((item) => {
    const value = /^[0-9]{1,9}$/.test(item.trim()) ? Number(item.trim()) : Number.NaN;
    if (!(value >= min)) {
      throw new BenchUsageError(
        `${name} takes ${list ? 'comma-separated whole numbers' : 'a whole number'} of at least ${min} (got ${JSON.stringify(raw)})`,
      );
    }
    return value;
  });
}
