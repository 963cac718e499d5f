import { existsSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { compileSchemaFile } from '../../src/core/compile-schema.ts';

/** The verdict of validating one value: `ok`, or the errors in ajv's text form. */
export type SchemaVerdict = { ok: true } | { ok: false; errors: string };

/** A compiled JSON Schema from `schemas/`; draft 2020-12 or draft-07, chosen by its `$schema`. */
export interface SchemaValidator {
  readonly path: string;
  validate(value: unknown): SchemaVerdict;
}

const cache = new Map<string, SchemaValidator>();

/**
 * Loads and compiles the schema at `path` once per process. Returns `undefined` when the file
 * does not exist, so steps can validate against schemas that other parts of the project add later.
 */
export function schemaValidator(path: string): SchemaValidator | undefined {
  const cached = cache.get(path);
  if (cached) return cached;
  if (!existsSync(path)) return undefined;
  const compiled = compileSchemaFile(path);
  const validator: SchemaValidator = {
    path,
    validate(value) {
      if (compiled(value)) return { ok: true };
      return { ok: false, errors: describe(compiled.errors ?? []) };
    },
  };
  cache.set(path, validator);
  return validator;
}

function describe(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}
