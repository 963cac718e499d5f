import { readFileSync } from 'node:fs';
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
 * A schema that the code knows by a TypeScript type of its own (`PublicPbxState`, `WireConfig`):
 * the schema gives the structure (it checks an input, and the OpenAPI document is generated from
 * it), `T` the type the effects and the client use. The tests that validate real answers against
 * the generated documents hold the two together.
 */
export function shaped<T, I = T>(schema: z.ZodType): z.ZodType<T, I> {
  return schema as unknown as z.ZodType<T, I>;
}

/**
 * A named schema: it becomes `#/components/schemas/<name>` of the generated OpenAPI document and is
 * referred to wherever an operation uses it. Names are unique across the control planes (zod's
 * registry refuses a name twice).
 */
export function named<S extends z.ZodType>(name: string, schema: S): S {
  return schema.meta({ id: name });
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

/** The schemas that stand for a JSON Schema file of `schemas/`, by that file's path. */
export const SCHEMA_FILES = new WeakMap<z.ZodType, string>();

/**
 * The JSON Schema file `schemas/<path>` (one the spec's interfaces or a plug-in also use) as a zod
 * schema: it checks like the file, and the generated document refers to the file instead of
 * repeating it. The file may refer only inside itself.
 */
export function schemaFile<T>(path: string): z.ZodType<T> {
  const text = readFileSync(new URL(`../../../schemas/${path}`, import.meta.url), 'utf8');
  const schema = z.fromJSONSchema(JSON.parse(text) as Parameters<typeof z.fromJSONSchema>[0]);
  SCHEMA_FILES.set(schema, path);
  return schema as unknown as z.ZodType<T>;
}
