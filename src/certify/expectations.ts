import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import { joinProblems, strictValidator } from '../core/strict-schema.ts';
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
  /** Local-check service names (with `*`) the plug-in watches (PLUGIN-STATE-AGREES-WITH-PBX). */
  watches: string[];
  scenarios: Map<string, Expectation>;
}

interface ExpectationsFile {
  plugin?: string;
  timeoutSeconds?: number;
  watches?: string[];
  scenarios?: Record<
    string,
    { state: StateName | number | (StateName | number)[]; text?: string[]; perfdata?: string[] }
  >;
}

/**
 * Reads and validates an expectations file (schemas/plugin-expectations.schema.json) strictly:
 * unknown keys are named with the nearest valid one and every problem is listed
 * (src/core/strict-schema.ts). Throws an `Error` with a one-line reason naming the file.
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
  const verdict = strictValidator(EXPECTATIONS_SCHEMA_PATH).validate(data);
  if (!verdict.ok) throw new Error(`expectations file ${label}: ${joinProblems(verdict.problems)}`);
  const file = data as ExpectationsFile;
  const scenarios = new Map<string, Expectation>();
  for (const [name, entry] of Object.entries(file.scenarios ?? {})) {
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
    watches: file.watches ?? [],
    scenarios,
  };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
