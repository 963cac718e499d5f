import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import { joinProblems, strictValidator } from '../core/strict-schema.ts';

/** One known gap of a target: a clause expected to fail there, and why; optionally only until a day. */
export interface ExpectedFailure {
  clause: string;
  reason: string;
  /** Last day (UTC, `YYYY-MM-DD`) on which the entry excuses the failure. */
  until?: string;
}

export interface ExpectedFailures {
  /** Where the target's baseline file is (or would be). */
  path: string;
  /** The file read, or `null` when the target has no baseline file (then no failure is expected). */
  file: string | null;
  /** The entries that excuse failures today. */
  entries: ExpectedFailure[];
  /** Entries past their `until` day: they excuse nothing any more. */
  expired?: ExpectedFailure[];
}

/** The schema of baseline files (a resource of the tool, resolved from the package root). */
export const EXPECTED_FAILURES_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'expected-failures.schema.json');

/** Target names double as baseline file names, so they are restricted to a safe alphabet. */
const TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether `name` can name a baseline file (`<dir>/<name>.yaml`). */
export function isValidTargetName(name: string): boolean {
  return TARGET_NAME.test(name);
}

/**
 * Reads `<dir>/<targetName>.yaml` ("known gaps can only shrink"). A missing file is an empty
 * baseline; a malformed one throws (a harness error, never a verdict).
 */
export async function loadExpectedFailures(
  dir: string,
  targetName: string,
  clauseIds: ReadonlySet<string>,
  today = todayUtc(),
): Promise<ExpectedFailures> {
  if (!isValidTargetName(targetName)) {
    throw new Error(`target name "${targetName}" may only use letters, digits, '.', '_' and '-'`);
  }
  return readBaseline(join(dir, `${targetName}.yaml`), clauseIds, today, false);
}

/**
 * Reads a baseline file a user names with `--baseline` (anywhere, e.g. in the vendor's own
 * repository; the caller resolves it against the working directory). It must exist.
 */
export async function loadBaselineFile(
  file: string,
  clauseIds: ReadonlySet<string>,
  today = todayUtc(),
): Promise<ExpectedFailures> {
  return readBaseline(file, clauseIds, today, true);
}

async function readBaseline(
  file: string,
  clauseIds: ReadonlySet<string>,
  today: string,
  mustExist: boolean,
): Promise<ExpectedFailures> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return { path: file, file: null, entries: [], expired: [] };
    if (code === 'ENOENT') throw new Error(`baseline file ${file} does not exist`);
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const all = parseExpectedFailures(text, clauseIds);
    return {
      path: file,
      file,
      entries: all.filter((entry) => entry.until === undefined || entry.until >= today),
      expired: all.filter((entry) => entry.until !== undefined && entry.until < today),
    };
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Parses and validates the text of a baseline file strictly against
 * schemas/expected-failures.schema.json (unknown keys named with the nearest valid one, every
 * problem listed), then checks that every clause is a catalog id and appears once.
 */
export function parseExpectedFailures(text: string, clauseIds: ReadonlySet<string>): ExpectedFailure[] {
  const data: unknown = parse(text);
  if (data == null) return [];
  const verdict = strictValidator(EXPECTED_FAILURES_SCHEMA_PATH).validate(data);
  const problems = verdict.ok ? [] : verdict.problems;
  if (!Array.isArray(data)) throw new Error(joinProblems(problems));
  const seen = new Set<string>();
  data.forEach((raw: unknown, index) => {
    const clause = (raw as { clause?: unknown } | null)?.clause;
    if (typeof clause !== 'string') return;
    if (!clauseIds.has(clause))
      problems.push(`entry ${index + 1}: clause ${clause} is not a catalog clause id`);
    else if (seen.has(clause)) problems.push(`entry ${index + 1}: ${clause} is listed twice`);
    seen.add(clause);
  });
  if (problems.length > 0) throw new Error(joinProblems(problems));
  return data as ExpectedFailure[];
}

/** Today's date in UTC as `YYYY-MM-DD` (the form of `until`). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
