import { z } from 'zod';

/**
 * The field vocabulary of control-operation inputs: zod schemas whose messages read as one line
 * after the field's name (`on must be true or false, got "off"`), the wording the control planes
 * have always used. `checkInput` puts the name in front and the received value behind.
 */

/** `true` or `false`. */
export function flag() {
  return z.boolean({ error: 'must be true or false' });
}

/** A safe integer from `min` to `max`. */
export function integer(min: number, max: number) {
  const error = `must be an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** A string of at most `maxLength` characters (`minLength` 1 makes it non-empty). */
export function text(maxLength: number, minLength = 0) {
  const error = minLength > 0 ? `must be a non-empty string` : 'must be a string';
  return z
    .string({ error })
    .min(minLength, { error })
    .max(maxLength, { error: `must be at most ${maxLength} characters` });
}

/** One of the given words. */
export function oneOf<const T extends string>(values: readonly T[]) {
  return z.enum(values as unknown as [T, ...T[]], { error: `must be one of ${values.join(', ')}` });
}

/** A JSON object with exactly these fields (an unknown field is refused, not ignored). */
export function fields<const S extends z.ZodRawShape>(shape: S) {
  return z.strictObject(shape, { error: 'must be a JSON object' });
}

/**
 * A value whose structure the effect itself checks (the state overlay, a provider list, an
 * inventory): the declaration gives its TypeScript type, the OpenAPI document its structure, and
 * the effect refuses what does not fit with `ControlInputError`.
 */
export function checkedByEffect<T>() {
  return z.custom<T>(() => true);
}

/** An answer body given by its TypeScript type; the OpenAPI document describes its structure. */
export function answer<T>() {
  return z.custom<T>(() => true);
}

/**
 * A string whose length only the request-body limit bounds (an id or a name the caller chooses);
 * `minLength` 1 makes it non-empty.
 */
export function unboundedText(minLength = 0) {
  const error = minLength > 0 ? `must be a non-empty string` : 'must be a string';
  return z.string({ error }).min(minLength, { error });
}

/** A finite number (fractions allowed) from `min` to `max`. */
export function decimal(min: number, max: number) {
  const error = `must be a number from ${min} to ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
}
