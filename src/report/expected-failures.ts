import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One known gap of a target: a clause expected to fail there, and why. */
export interface ExpectedFailure {
  clause: string;
  reason: string;
}

export interface ExpectedFailures {
  /** Where the target's baseline file is (or would be). */
  path: string;
  /** The file read, or `null` when the target has no baseline file (then no failure is expected). */
  file: string | null;
  entries: ExpectedFailure[];
}

/** Target names double as baseline file names, so they are restricted to a safe alphabet. */
const TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether `name` can name a baseline file (`<dir>/<name>.yaml`). */
export function isValidTargetName(name: string): boolean {
  return TARGET_NAME.test(name);
}

/**
 * Reads `<dir>/<targetName>.yaml` ("known gaps can only shrink"). The file holds a YAML list of
 * `{ clause, reason }`; every clause must be a catalog id and appear once. A missing file is an
 * empty baseline; a malformed one throws (a harness error, never a verdict).
 */
export async function loadExpectedFailures(
  dir: string,
  targetName: string,
  clauseIds: ReadonlySet<string>,
): Promise<ExpectedFailures> {
  if (!isValidTargetName(targetName)) {
    throw new Error(`target name "${targetName}" may only use letters, digits, '.', '_' and '-'`);
  }
  const file = join(dir, `${targetName}.yaml`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: file, file: null, entries: [] };
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return { path: file, file, entries: parseExpectedFailures(text, clauseIds) };
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/** Parses and validates the text of a baseline file. */
export function parseExpectedFailures(text: string, clauseIds: ReadonlySet<string>): ExpectedFailure[] {
  const data: unknown = parse(text);
  if (data == null) return [];
  if (!Array.isArray(data)) throw new Error('expected a YAML list of { clause, reason }');
  const seen = new Set<string>();
  return data.map((raw, index): ExpectedFailure => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new Error(`entry ${index + 1} is not a mapping { clause, reason }`);
    }
    const { clause, reason } = raw as Record<string, unknown>;
    if (typeof clause !== 'string' || !clauseIds.has(clause)) {
      throw new Error(`entry ${index + 1}: clause ${String(clause)} is not a catalog clause id`);
    }
    if (typeof reason !== 'string' || reason.trim().length === 0) {
      throw new Error(`entry ${index + 1} (${clause}): a reason is required`);
    }
    if (seen.has(clause)) throw new Error(`entry ${index + 1}: ${clause} is listed twice`);
    seen.add(clause);
    return { clause, reason };
  });
}
