import type { FigureUnit } from './figure-catalog.ts';

/**
 * How a served figure's unit converts into a perfdata UOM (PLUGIN-UOM-MATCHES-SERVED,
 * PLUGIN-FIGURES-AS-DECLARED): the factor to multiply the served value by, or `null` when the
 * UOM measures something else (a count printed with `B`, a size printed with `s`). A value
 * without a UOM is a plain number: any figure may be printed so, unconverted.
 */
const FACTORS: Record<FigureUnit, Record<string, number>> = {
  bytes: { B: 1, KB: 1 / 1024, MB: 1 / 1024 ** 2, GB: 1 / 1024 ** 3, TB: 1 / 1024 ** 4 },
  kB: { B: 1024, KB: 1, MB: 1 / 1024, GB: 1 / 1024 ** 2, TB: 1 / 1024 ** 3 },
  ms: { ms: 1, s: 1 / 1000, us: 1000 },
  s: { s: 1, ms: 1000, us: 1_000_000 },
  min: { s: 60, ms: 60_000, us: 60_000_000 },
  '%': { '%': 1 },
  count: { c: 1 },
  number: {},
};

export function unitFactor(unit: FigureUnit, uom: string): number | null {
  if (uom === '') return 1;
  return FACTORS[unit][uom] ?? null;
}

/** The UOMs that say what a value measures (a label with one of them is held to its unit). */
export const MEANINGFUL_UOMS: ReadonlySet<string> = new Set([
  'B',
  'KB',
  'MB',
  'GB',
  'TB',
  's',
  'ms',
  'us',
  '%',
]);

/** A unit in words, for findings. */
export function unitText(unit: FigureUnit): string {
  return unit === 'count' ? 'a count' : unit === 'number' ? 'a plain number' : unit;
}
