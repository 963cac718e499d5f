import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Compiles the JSON Schema file at `path` with ajv: draft 2020-12 or draft-07 by its `$schema`,
 * with formats, every error collected (`allErrors`) and each error carrying its schema
 * (`verbose`, so a message can name the declared keys). Throws when the file is missing or not a
 * schema. Callers keep the compiled function: compiling is the expensive part.
 */
export function compileSchemaFile(path: string): ValidateFunction {
  const schema = JSON.parse(readFileSync(path, 'utf8')) as { $schema?: string };
  const options = { allErrors: true, strict: false, verbose: true };
  const ajv = String(schema.$schema ?? '').includes('2020-12') ? new Ajv2020(options) : new Ajv(options);
  addFormats.default(ajv);
  return ajv.compile(schema);
}
