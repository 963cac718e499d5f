/**
 * Applies a deep-partial overlay (scenario file, `PATCH /state`) to a plain JSON value, returning a
 * new value. Objects merge key by key, arrays and scalars replace, `null` in the overlay deletes an
 * optional object field or sets a nullable one (e.g. `raid: null`). Keys the base does not have are
 * refused so a typo in a scenario is an error, not a silently ignored field.
 */
export function deepMerge<T>(base: T, overlay: unknown, path = ''): T {
  if (overlay === undefined) return structuredClone(base);
  if (overlay === null || typeof overlay !== 'object' || Array.isArray(overlay))
    return structuredClone(overlay) as T;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) {
    return structuredClone(overlay) as T;
  }
  const result: Record<string, unknown> = structuredClone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(overlay as Record<string, unknown>)) {
    if (!(key in result)) throw new UnknownFieldError(`${path}${key}`);
    result[key] = deepMerge(result[key], value, `${path}${key}.`);
  }
  return result as T;
}

export class UnknownFieldError extends Error {
  constructor(readonly field: string) {
    super(`unknown state field: ${field}`);
    this.name = 'UnknownFieldError';
  }
}
