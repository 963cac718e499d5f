/** 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z in ms. */
const FROM = Date.UTC(2000, 0, 1);
const UNTIL = Date.UTC(2100, 0, 1);

/**
 * Whether `value` is a time in integer milliseconds since 1970 UTC (FLEET-TIMES-MS-UTC): a safe
 * integer between 2000 and 2100. Seconds (about 1.7e9) or microseconds (about 1.7e15) fall outside.
 */
export function isEpochMs(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= FROM && value < UNTIL;
}

/** The names of the time members of interface B (attention item, acknowledge result, history entry). */
export const TIME_FIELDS = ['firstAt', 'lastAt', 'acknowledgedAt', 'createdAt'] as const;

/** Every time member anywhere in `value`, with its JSON path. */
export function timeMembers(value: unknown, path = '$'): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => timeMembers(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...((TIME_FIELDS as readonly string[]).includes(key) ? [{ path: `${path}.${key}`, value: v }] : []),
    ...timeMembers(v, `${path}.${key}`),
  ]);
}
