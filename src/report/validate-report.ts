import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { CompatibilityReport } from './model.ts';

const SCHEMA_PATH = new URL('../../schemas/compatibility-report.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

/**
 * Checks a report against schemas/compatibility-report.schema.json. Returns the schema errors as
 * one-line texts (empty when valid); used by the JSON renderer at write time and by the tests.
 */
export function validateReport(report: CompatibilityReport | unknown): string[] {
  validator ??= compile();
  if (validator(report)) return [];
  return (validator.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
  );
}

function compile(): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));
}
