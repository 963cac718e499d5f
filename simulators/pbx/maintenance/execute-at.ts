/** Year, month (1–12), day, hour (0–23), minute of a local date-time. */
export type LocalDateTime = [number, number, number, number, number];

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * Reads `executeAt` of `UpdatePbx`: exactly `yyyy-mm-ddThh:mm` (no seconds, no zone, no
 * surrounding space) naming a real calendar date and time, else `null` (MAINT-PARAM-EXECUTEAT,
 * MAINT-UNSPEC-WRONG-TYPES).
 */
export function parseExecuteAt(text: string): LocalDateTime | null {
  const match = SHAPE.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as LocalDateTime;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return [year, month, day, hour, minute];
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/** The epoch ms at which a UTC clock shows these fields (years below 100 stay as they are). */
function wallAsUtc([year, month, day, hour, minute]: LocalDateTime): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, 0, 0);
  return date.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return null;
    }
    if (formatters.size > 100) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far the zone's wall clock is ahead of UTC at `epochMs`, in ms. */
function zoneOffset(formatter: Intl.DateTimeFormat, epochMs: number): number {
  const seconds = Math.floor(epochMs / 1000) * 1000;
  const parts = formatter.formatToParts(new Date(seconds));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const date = new Date(0);
  date.setUTCFullYear(part('year'), part('month') - 1, part('day'));
  date.setUTCHours(part('hour'), part('minute'), part('second'), 0);
  return date.getTime() - seconds;
}

/**
 * The epoch ms at which the clock of `timeZone` shows the local date-time
 * (MAINT-UNSPEC-UPDATE-SCHEDULING). A time skipped by a daylight-saving change is moved forward
 * by the length of the gap; a time that occurs twice means its second occurrence. `null` when
 * the zone is unknown.
 */
export function localDateTimeToEpoch(local: LocalDateTime, timeZone: string): number | null {
  const wall = wallAsUtc(local);
  if (timeZone === 'UTC') return wall;
  const formatter = formatterFor(timeZone);
  if (!formatter) return null;
  const first = wall - zoneOffset(formatter, wall);
  const second = zoneOffset(formatter, first);
  return wall - second;
}
