import type { ErrorObject } from 'ajv';
import { compileSchemaFile } from './compile-schema.ts';

/**
 * Strict validation of the files a user writes (target files, expected-failure files, the plug-in
 * expectation files of `certify-plugin`): their schemas say `additionalProperties: false`, and
 * every problem is reported, never only the first: a typo such as `maintainance` names the key
 * and the nearest valid one, `unknown key "maintainance" (did you mean "maintenance"?)`.
 */

/** The outcome of validating one value: `ok`, or every problem as one short sentence each. */
export type StrictVerdict = { ok: true } | { ok: false; problems: string[] };

export interface StrictValidator {
  readonly path: string;
  validate(value: unknown): StrictVerdict;
}

const cache = new Map<string, StrictValidator>();

/**
 * Compiles the JSON Schema at `path` (draft 2020-12 or draft-07, by its `$schema`) once per
 * process, with all errors collected. Throws when the file is missing or not a schema.
 */
export function strictValidator(path: string): StrictValidator {
  const cached = cache.get(path);
  if (cached) return cached;
  const compiled = compileSchemaFile(path);
  const validator: StrictValidator = {
    path,
    validate(value) {
      if (compiled(value)) return { ok: true };
      return { ok: false, problems: formatSchemaErrors(compiled.errors ?? []) };
    },
  };
  cache.set(path, validator);
  return validator;
}

/**
 * Every ajv error as a sentence, in ajv's order, without duplicates. An `additionalProperties`
 * error becomes `unknown key "<key>" at <path>` plus `(did you mean "<nearest>"?)` when a declared
 * key is close (ajv must run with `verbose: true` so the error carries its schema's properties).
 * A value matching none of a `oneOf`/`anyOf`'s forms gives one sentence naming the forms; `if`
 * wrappers that only repeat their branches' errors are left out.
 */
export function formatSchemaErrors(errors: readonly ErrorObject[]): string[] {
  // A value that matches none of a oneOf/anyOf's forms is one problem, not one per form: the
  // forms' own errors at the same place are gathered into the wrapper's sentence.
  const choicePaths = new Set(
    errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => e.instancePath),
  );
  const forms = new Map<string, string[]>();
  const problems: string[] = [];
  for (const error of errors) {
    if (['if', 'oneOf', 'anyOf', 'propertyNames'].includes(error.keyword)) continue;
    const at = error.instancePath || '/';
    const text = describeError(error, at);
    if (choicePaths.has(error.instancePath)) {
      const list = forms.get(error.instancePath) ?? [];
      const form = text.slice(at.length + 1).replace(/^must be /, '');
      if (!list.includes(form)) list.push(form);
      forms.set(error.instancePath, list);
      continue;
    }
    if (!problems.includes(text)) problems.push(text);
  }
  for (const [path, list] of forms) problems.push(`${path || '/'} must be ${list.join(' or ')}`);
  return problems;
}

function describeError(error: ErrorObject, at: string): string {
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    const known = Object.keys(
      ((error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ??
        {}) as object,
    );
    const nearest = nearestKey(key, known);
    return `unknown key "${key}" at ${at}${nearest ? ` (did you mean "${nearest}"?)` : ''}`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `${at} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  // An error about a key itself (propertyNames) names the key.
  const key = (error as { propertyName?: string }).propertyName;
  if (key !== undefined) return `key "${key}" at ${at} ${error.message ?? 'is invalid'}`;
  return `${at} ${error.message ?? 'is invalid'}`;
}

/** The problems as one line: `N problems: a; b; c`, or the single problem. */
export function joinProblems(problems: readonly string[]): string {
  if (problems.length === 1) return problems[0] ?? '';
  return `${problems.length} problems: ${problems.join('; ')}`;
}

/**
 * The declared key closest to `key` by edit distance (case-insensitive), when it is close enough
 * to be a typo: at most 2 edits, or a third of the key's length for longer keys.
 */
export function nearestKey(key: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(key.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** The `count` candidates closest to `key` by edit distance (case-insensitive), closest first. */
export function closestKeys(key: string, candidates: readonly string[], count: number): string[] {
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(key.toLowerCase(), candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((c) => c.candidate);
}

/** Levenshtein distance with transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
