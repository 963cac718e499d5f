import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { projectPath } from '../../support/project-root.ts';

/** The wire shapes of interface B, each a file in schemas/fleet/. */
export const FLEET_SCHEMAS = {
  'site list': 'site-list.schema.json',
  'attention item': 'attention-item.schema.json',
  'acknowledge result': 'acknowledge-result.schema.json',
  'history list': 'history-list.schema.json',
  'history entry': 'history-entry.schema.json',
  'error object': 'error.schema.json',
} as const;
export type FleetSchemaName = keyof typeof FLEET_SCHEMAS;

const SCHEMA_DIR = projectPath('schemas', 'fleet');
const BASE_ID = 'https://pbx-conformance.invalid/schemas/fleet/';

let compiled: Map<FleetSchemaName, ValidateFunction> | undefined;

/**
 * All schemas of schemas/fleet/ in one Ajv (draft 2020-12), so the relative `$ref`s between them
 * (site list → attention item, history list → history entry) resolve. Compiled once per process.
 */
function validators(): Map<FleetSchemaName, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(`${SCHEMA_DIR}/${file}`, 'utf8')));
  }
  compiled = new Map();
  for (const [name, file] of Object.entries(FLEET_SCHEMAS) as [FleetSchemaName, string][]) {
    const validate = ajv.getSchema(`${BASE_ID}${file}`);
    if (!validate) throw new Error(`schemas/fleet/${file} is missing or has another $id`);
    compiled.set(name, validate);
  }
  return compiled;
}

/** `null` when `value` matches the named schema, else ajv's errors as one line. */
export function fleetSchemaErrors(name: FleetSchemaName, value: unknown): string | null {
  const validate = validators().get(name);
  if (!validate) throw new Error(`no fleet schema "${name}"`);
  if (validate(value)) return null;
  return (validate.errors ?? []).map(describe).join('; ');
}

function describe(e: ErrorObject): string {
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
}
