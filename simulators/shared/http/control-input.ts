import { ControlInputError } from './control-input-error.ts';

/**
 * Checks for values that cross the control plane. Each returns the value with its proper type or
 * throws a `ControlInputError` naming the field, so the TypeScript API and the HTTP server refuse
 * the same inputs with the same one-line messages.
 */

/** Renders a received value for an error message: short, one line, never the whole payload. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean')
    throw new ControlInputError(`${field} must be true or false, got ${describeValue(value)}`);
  return value;
}

export function requireInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ControlInputError(
      `${field} must be an integer from ${min} to ${max}, got ${describeValue(value)}`,
    );
  }
  return value;
}

export function requireString(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== 'string')
    throw new ControlInputError(`${field} must be a string, got ${describeValue(value)}`);
  if (value.length > maxLength)
    throw new ControlInputError(`${field} must be at most ${maxLength} characters`);
  return value;
}

export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ControlInputError(`${field} must be one of ${allowed.join(', ')}, got ${describeValue(value)}`);
  }
  return value as T;
}

export function requireArray(value: unknown, field: string, maxItems: number): unknown[] {
  if (!Array.isArray(value))
    throw new ControlInputError(`${field} must be an array, got ${describeValue(value)}`);
  if (value.length > maxItems) throw new ControlInputError(`${field} must have at most ${maxItems} entries`);
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object with exactly the given keys allowed (all optional here; the field checks decide
 * what is required). An unknown key is refused so a typo is an error, not a silent no-op.
 */
export function requireObject(
  value: unknown,
  field: string,
  allowedKeys: readonly string[],
): Record<string, unknown> {
  if (!isPlainObject(value))
    throw new ControlInputError(`${field} must be a JSON object, got ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (!allowedKeys.includes(key)) {
      throw new ControlInputError(
        `${field} has an unknown field ${JSON.stringify(key)} (allowed: ${allowedKeys.join(', ')})`,
      );
    }
  }
  return value;
}
