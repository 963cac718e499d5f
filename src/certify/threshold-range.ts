/**
 * The threshold ranges of performance data (plugin-interface.md, "Performance data" and "What the
 * state and the figures say"; the Monitoring Plugins guidelines, "Threshold and ranges"):
 * `[@][start:][end]`. `start` is 0 when left out and may be `~` (negative infinity); `end` is
 * positive infinity when left out after a `:`. An alert is raised when the value lies outside
 * `start..end` (both ends inside), or inside it with a leading `@`. The guidelines' table:
 *
 * | range    | alert when x …                  |
 * | -------- | ------------------------------- |
 * | `10`     | < 0 or > 10                     |
 * | `10:`    | < 10                            |
 * | `~:10`   | > 10                            |
 * | `10:20`  | < 10 or > 20                    |
 * | `@10:20` | ≥ 10 and ≤ 20                   |
 *
 * Used for PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS.
 */
export interface ThresholdRange {
  start: number;
  end: number;
  /** `@`: alert inside the range instead of outside it. */
  inside: boolean;
  /** The range as printed. */
  text: string;
}

const NUMBER = '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const RANGE_RE = new RegExp(`^(@)?(?:(${NUMBER}|~)?:)?(${NUMBER})?$`);

/**
 * Parses a range; `null` for an empty field (no threshold) or for text that is no range (which
 * PLUGIN-PERFDATA-RANGES reports). A range whose start lies above its end is no range either.
 */
export function parseRange(text: string): ThresholdRange | null {
  if (text === '' || text === '@') return null;
  const match = RANGE_RE.exec(text);
  if (!match) return null;
  const [, at, startText, endText] = match;
  const hasColon = text.includes(':');
  // `:` with nothing on either side, or `@` alone, says nothing.
  if (!hasColon && endText === undefined) return null;
  if (hasColon && startText === undefined && endText === undefined) return null;
  const start =
    startText === undefined ? 0 : startText === '~' ? Number.NEGATIVE_INFINITY : Number(startText);
  const end = endText === undefined ? Number.POSITIVE_INFINITY : Number(endText);
  if (!(start <= end)) return null;
  return { start, end, inside: at === '@', text };
}

/** Whether `value` raises an alert under `range`. */
export function alerts(range: ThresholdRange, value: number): boolean {
  const within = value >= range.start && value <= range.end;
  return range.inside ? within : !within;
}
