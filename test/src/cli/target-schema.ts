import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

let validator: ValidateFunction | undefined;

/** Schema errors of a target description against schemas/target.schema.json (empty: valid). */
export function targetSchemaErrors(target: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validator = ajv.compile(
      JSON.parse(readFileSync(new URL('../../../schemas/target.schema.json', import.meta.url), 'utf8')),
    );
  }
  if (validator(target)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
