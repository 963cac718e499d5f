import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const DIRECTORY = new URL('../../../../schemas/maintenance/', import.meta.url);
const BASE_ID = 'https://pbx-conformance.invalid/schemas/maintenance/';

const ajv = new Ajv2020({ allErrors: true, strict: true });
for (const file of readdirSync(DIRECTORY).filter((name) => name.endsWith('.schema.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(new URL(file, DIRECTORY), 'utf8')));
}

/** A validator for schemas/maintenance/<name>.schema.json; failures print Ajv's errors. */
export function validatorFor(name: string): (value: unknown) => boolean {
  const validate = ajv.getSchema(`${BASE_ID}${name}.schema.json`) as ValidateFunction | undefined;
  if (!validate) throw new Error(`no schema ${name}`);
  return (value) => {
    const valid = validate(value);
    if (!valid) console.error(name, JSON.stringify(validate.errors));
    return valid;
  };
}
