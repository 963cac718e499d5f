import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ResolverProvider } from '../state/provider-config.ts';

const SCHEMA_PATH = fileURLToPath(new URL('../../../schemas/resolver-provider.schema.json', import.meta.url));

/** A provider configuration that does not fit schemas/resolver-provider.schema.json. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message.replace(/\s*[\r\n]+\s*/g, ' '));
    this.name = 'ProviderConfigError';
  }
}

let compiled: { one: ValidateFunction; list: ValidateFunction } | undefined;

function validators(): { one: ValidateFunction; list: ValidateFunction } {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $id: string };
    const ajv = new Ajv({ allErrors: false, strict: false });
    ajv.addSchema(schema);
    compiled = {
      one: ajv.getSchema(schema.$id) as ValidateFunction,
      list: ajv.compile({ type: 'array', maxItems: 64, items: { $ref: schema.$id } }),
    };
  }
  return compiled;
}

function describe(errors: ErrorObject[] | null | undefined, field: string): string {
  const e = errors?.[0];
  if (!e) return `${field} is invalid`;
  const where = `${field}${e.instancePath}`;
  if (e.keyword === 'additionalProperties')
    return `${where} has an unknown field ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

/** Checks one provider against the schema; throws `ProviderConfigError` with the first problem. */
export function validateProvider(value: unknown, field = 'provider'): ResolverProvider {
  const { one } = validators();
  if (!one(value)) throw new ProviderConfigError(describe(one.errors, field));
  return value as ResolverProvider;
}

/** Checks a provider list: each against the schema, ids unique. */
export function validateProviders(value: unknown, field = 'providers'): ResolverProvider[] {
  const { list } = validators();
  if (!list(value)) throw new ProviderConfigError(describe(list.errors, field));
  const providers = value as ResolverProvider[];
  const ids = new Set<string>();
  for (const provider of providers) {
    if (ids.has(provider.id)) throw new ProviderConfigError(`${field} has the id ${provider.id} twice`);
    ids.add(provider.id);
  }
  return providers;
}
