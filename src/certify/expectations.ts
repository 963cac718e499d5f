import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../catalog/project-paths.ts';
import { STATE_NAMES, type StateName } from './plugin-output.ts';

export const EXPECTATIONS_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'plugin-expectations.schema.json');

/** One scenario's expectation, normalised: states as names, patterns compiled. */
export interface Expectation {
  states: StateName[];
  text: RegExp[];
  perfdata: string[];
}

export interface Expectations {
  plugin?: string;
  timeoutSeconds?: number;
  scenarios: Map<string, Expectation>;
}

interface ExpectationsFile {
  plugin?: string;
  timeoutSeconds?: number;
  scenarios: Record<
    string,
    { state: StateName | number | (StateName | number)[]; text?: string[]; perfdata?: string[] }
  >;
}

/**
 * Reads and validates an expectations file (schemas/plugin-expectations.schema.json). Throws an
 * `Error` with a one-line reason naming the file and the offending key or value.
 */
export async function loadExpectations(path: string, label = path): Promise<Expectations> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`expectations file ${label} cannot be read${code ? ` (${code})` : ''}`);
  }
  let data: unknown;
  try {
    data = parseYaml(source);
  } catch (error) {
    throw new Error(`expectations file ${label} is not valid YAML: ${firstLine((error as Error).message)}`);
  }
  return parseExpectations(data, label);
}

/** Validates parsed YAML/JSON data as expectations; see {@link loadExpectations}. */
export async function parseExpectations(data: unknown, label: string): Promise<Expectations> {
  const validate = await validator();
  if (!validate(data)) throw new Error(`expectations file ${label}: ${describeError(validate.errors ?? [])}`);
  const file = data as ExpectationsFile;
  const scenarios = new Map<string, Expectation>();
  for (const [name, entry] of Object.entries(file.scenarios)) {
    const states = (Array.isArray(entry.state) ? entry.state : [entry.state]).map((s) =>
      typeof s === 'number' ? (STATE_NAMES[s] as StateName) : s,
    );
    const text = (entry.text ?? []).map((pattern, index) => {
      try {
        return new RegExp(pattern, 'm');
      } catch (error) {
        throw new Error(
          `expectations file ${label}: /scenarios/${name}/text/${index} is not a regular expression: ${firstLine((error as Error).message)}`,
        );
      }
    });
    scenarios.set(name, { states, text, perfdata: entry.perfdata ?? [] });
  }
  return {
    ...(file.plugin === undefined ? {} : { plugin: file.plugin }),
    ...(file.timeoutSeconds === undefined ? {} : { timeoutSeconds: file.timeoutSeconds }),
    scenarios,
  };
}

let compiled: ReturnType<Ajv['compile']> | undefined;

async function validator(): Promise<ReturnType<Ajv['compile']>> {
  if (!compiled) {
    const schema = JSON.parse(await readFile(EXPECTATIONS_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    compiled = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return compiled;
}

/** The most telling error as one line: an unknown key is named as such. */
function describeError(errors: ErrorObject[]): string {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const key = (unknown.params as { additionalProperty: string }).additionalProperty;
    return `unknown key '${key}' at ${unknown.instancePath || '/'}`;
  }
  // ajv reports a bad scenario name as a `pattern` error carrying the offending `propertyName`.
  const named = errors.find((e) => (e as { propertyName?: string }).propertyName !== undefined);
  if (named) {
    const property = (named as { propertyName?: string }).propertyName;
    return `scenario name '${property}' at ${named.instancePath || '/'} is not a scenario name (lower case, digits, '-')`;
  }
  const required = errors.find((e) => e.keyword === 'required');
  if (required) {
    const missing = (required.params as { missingProperty: string }).missingProperty;
    return `missing key '${missing}' at ${required.instancePath || '/'}`;
  }
  // For oneOf (state), the enum branch's message is the useful one.
  const state = errors.find((e) => e.keyword === 'enum' && /\/state/.test(e.instancePath));
  if (state) return `${state.instancePath}: the state must be OK, WARNING, CRITICAL, UNKNOWN or 0-3`;
  const error = errors[0];
  return error ? `${error.instancePath || '/'} ${error.message ?? 'is invalid'}` : 'invalid';
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
