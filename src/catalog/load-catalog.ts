import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { DEFAULT_CATALOG_PATH } from '../core/project-paths.ts';
import { fingerprint } from '../core/tool-version.ts';
import {
  type Catalog,
  CHECK_KINDS,
  type CheckKind,
  CLAUSE_LEVELS,
  type Clause,
  type ClauseLevel,
  type UnspecifiedEntry,
} from './catalog.ts';

/** Reads and validates the clause catalog; throws an Error naming the first defect. */
export async function loadCatalog(path: string = DEFAULT_CATALOG_PATH): Promise<Catalog> {
  const text = await readFile(path, 'utf8');
  try {
    return parseCatalog(text);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

/** Parses catalog YAML text into typed data, rejecting missing fields and duplicate ids. */
export function parseCatalog(text: string): Catalog {
  const data: unknown = parse(text);
  if (!isRecord(data)) throw new Error('the catalog is not a YAML mapping');
  const version = data['version'];
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw new Error('`version` is not an integer');
  const rawClauses = data['clauses'];
  if (!Array.isArray(rawClauses)) throw new Error('`clauses` is not a list');
  const rawUnspecified = data['unspecified'] ?? [];
  if (!Array.isArray(rawUnspecified)) throw new Error('`unspecified` is not a list');
  const seen = new Set<string>();
  const claim = (id: string): void => {
    if (seen.has(id)) throw new Error(`duplicate id ${id}`);
    seen.add(id);
  };
  const clauses = rawClauses.map((raw, index): Clause => {
    const where = `clauses[${index}]`;
    if (!isRecord(raw)) throw new Error(`${where} is not a mapping`);
    const id = requireString(raw, 'id', where);
    claim(id);
    const check = requireString(raw, 'check', id);
    if (!(CHECK_KINDS as readonly string[]).includes(check))
      throw new Error(`${id}: unknown check \`${check}\``);
    const property = raw['property'] ?? false;
    if (typeof property !== 'boolean') throw new Error(`${id}: \`property\` is not a boolean`);
    const level = raw['level'];
    if (check === 'plugin' && !(CLAUSE_LEVELS as readonly unknown[]).includes(level))
      throw new Error(`${id}: a plugin clause needs \`level\` must or should`);
    if (check !== 'plugin' && level !== undefined)
      throw new Error(`${id}: \`level\` is for plugin clauses only`);
    return {
      id,
      spec: requireString(raw, 'spec', id),
      section: requireString(raw, 'section', id),
      rule: requireString(raw, 'rule', id),
      check: check as CheckKind,
      property,
      ...(check === 'plugin' ? { level: level as ClauseLevel } : {}),
    };
  });
  const unspecified = rawUnspecified.map((raw, index): UnspecifiedEntry => {
    const where = `unspecified[${index}]`;
    if (!isRecord(raw)) throw new Error(`${where} is not a mapping`);
    const id = requireString(raw, 'id', where);
    claim(id);
    return { id, spec: requireString(raw, 'spec', id), what: requireString(raw, 'what', id) };
  });
  return { version, fingerprint: fingerprint(text), clauses, unspecified };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(record: Record<string, unknown>, key: string, where: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value.length === 0)
    throw new Error(`${where}: \`${key}\` is missing or not text`);
  return value;
}
