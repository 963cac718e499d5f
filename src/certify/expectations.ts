import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import { closestKeys, joinProblems, strictValidator } from '../core/strict-schema.ts';
import { FIGURES_BY_NAME } from './figure-catalog.ts';
import { STATE_NAMES, type StateName } from './plugin-output.ts';

export const EXPECTATIONS_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'plugin-expectations.schema.json');

/** One scenario's expectation, normalised: states as names, patterns compiled. */
export interface Expectation {
  states: StateName[];
  text: RegExp[];
  perfdata: string[];
}

/**
 * A watched local-check service (with `*`): `at-least` holds the plug-in's state at least as severe
 * as the PBX's (PLUGIN-STATE-AGREES-WITH-PBX), `exact` equal to it (PLUGIN-STATE-EQUALS-PBX).
 */
export interface Watch {
  pattern: string;
  agree: 'at-least' | 'exact';
}

/**
 * What a perfdata label measures (PLUGIN-FIGURES-AS-DECLARED): a figure of the figure catalog, or a
 * plain ratio or percentage of two.
 */
export type Measure = { figure: string } | { ratio: [string, string] } | { percent: [string, string] };

export interface Expectations {
  plugin?: string;
  timeoutSeconds?: number;
  /** Local-check service names (with `*`) the plug-in watches. */
  watches: Watch[];
  /** Per perfdata label, the served figure it measures. */
  measures: Map<string, Measure>;
  scenarios: Map<string, Expectation>;
}

/** The figure names a measure is made of. */
export function figuresOf(measure: Measure): string[] {
  return 'figure' in measure ? [measure.figure] : 'ratio' in measure ? measure.ratio : measure.percent;
}

/** A measure as written in the file. */
export function describeMeasure(measure: Measure): string {
  if ('figure' in measure) return measure.figure;
  return 'ratio' in measure
    ? `ratio(${measure.ratio.join(' / ')})`
    : `percent(${measure.percent.join(' / ')})`;
}

interface ExpectationsFile {
  plugin?: string;
  timeoutSeconds?: number;
  watches?: (string | { service: string; agree?: 'at-least' | 'exact' })[];
  measures?: Record<string, string | { ratio: [string, string] } | { percent: [string, string] }>;
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
  const measures = new Map<string, Measure>();
  for (const [perfLabel, written] of Object.entries(file.measures ?? {})) {
    const measure: Measure = typeof written === 'string' ? { figure: written } : written;
    for (const name of figuresOf(measure)) {
      if (FIGURES_BY_NAME.has(name)) continue;
      const closest = closestKeys(name, [...FIGURES_BY_NAME.keys()], 3);
      throw new Error(
        `expectations file ${label}: /measures/${perfLabel}: no figure '${name}' in the figure catalog (closest: ${closest.join(', ')}; see certify-plugin --list-figures)`,
      );
    }
    measures.set(perfLabel, measure);
  }
  return {
    ...(file.plugin === undefined ? {} : { plugin: file.plugin }),
    ...(file.timeoutSeconds === undefined ? {} : { timeoutSeconds: file.timeoutSeconds }),
    watches: (file.watches ?? []).map((w) =>
      typeof w === 'string'
        ? { pattern: w, agree: 'at-least' }
        : { pattern: w.service, agree: w.agree ?? 'at-least' },
    ),
    measures,
    scenarios,
  };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
