import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

const OPENAPI_PATH = fileURLToPath(
  new URL('../../schemas/customer-endpoint-control.openapi.yaml', import.meta.url),
);
const DOCUMENT_ID = 'urn:pbx-conformance:customer-endpoint-control';

/** The schemas of schemas/customer-endpoint-control.openapi.yaml the control plane validates against. */
export type ControlSchemaName = 'Config' | 'Behaviour' | 'WaitRequest';

let ajv: Ajv2020 | undefined;
const compiled = new Map<ControlSchemaName, ValidateFunction>();

/**
 * A validator for one component schema of the OpenAPI document, compiled once per process: the
 * document that describes the control plane is the one that checks its input, so the two cannot
 * drift apart.
 */
export function controlSchema(name: ControlSchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    if (!ajv) {
      const document = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, unknown>;
      ajv = new Ajv2020({ allErrors: false, strict: false });
      ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    }
    validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (!validate) throw new Error(`schema ${name} is missing from ${OPENAPI_PATH}`);
    compiled.set(name, validate);
  }
  return validate;
}

/** The first validation error as one line, e.g. `fallback/status must be <= 599`. */
export function describeSchemaError(errors: ErrorObject[] | null | undefined, field: string): string {
  const error = errors?.[0];
  if (!error) return `${field} is invalid`;
  const where = `${field}${error.instancePath}`;
  if (error.keyword === 'additionalProperties')
    return `${where} has an unknown field ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}
