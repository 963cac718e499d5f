/**
 * Matching values to the lines of an agent-text section by value (the MON-TEXT clauses are about
 * content; the FIELD steps check the line shapes). PBX sections consist of key/value lines, so one
 * line carries one field's value: two fields that give the same value need two lines, and the
 * values of one module must come from lines of that module, not from its neighbours'.
 */
import { textGives } from './snapshot-values.ts';

const DELIMITER = String.raw`[\s:=;|,()[\]{}<>"']`;

/** Whether `line` names `text` as a whole word-run: delimited by separators or the line's ends. */
export function lineMentions(line: string, text: string): boolean {
  if (text === '') return false;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|${DELIMITER})${escaped}(?:$|${DELIMITER})`).test(line);
}

export interface WantedValue {
  /** What the value is, for messages (a JSON field name, a module and member, …). */
  label: string;
  /** Each of these must be given by the one line assigned to the value. */
  values: readonly unknown[];
}

/**
 * Gives each wanted value a line of its own that carries it (`textGives` for every one of its
 * `values`), as a maximum bipartite matching; returns the labels left without a line. Values that
 * differ may share nothing, so with pairwise-distinct values this is "each value is on a line";
 * with equal values each still needs its own line.
 */
export function valuesWithoutOwnLine(
  lines: readonly string[],
  wanted: readonly WantedValue[],
  lineFilter: (line: string) => boolean = () => true,
): string[] {
  const candidates = wanted.map((w) =>
    lines.flatMap((line, i) => (lineFilter(line) && w.values.every((v) => textGives(line, v)) ? [i] : [])),
  );
  const lineOwner = new Map<number, number>();
  const tryAssign = (w: number, seen: Set<number>): boolean => {
    for (const line of candidates[w]!) {
      if (seen.has(line)) continue;
      seen.add(line);
      const owner = lineOwner.get(line);
      if (owner === undefined || tryAssign(owner, seen)) {
        lineOwner.set(line, w);
        return true;
      }
    }
    return false;
  };
  return wanted.filter((_, w) => !tryAssign(w, new Set())).map((w) => w.label);
}

/**
 * Whether some run of consecutive lines gives every one of `values` and names none of `others`
 * (the names of other modules): the values of one module come from its own lines. A line that
 * names another module does not end the run when that name is part of one of `values` (an
 * instance called like another module).
 */
export function hasOwnRun(
  lines: readonly string[],
  values: readonly unknown[],
  others: readonly string[],
): boolean {
  const foreign = others.filter((o) => !values.some((v) => typeof v === 'string' && v.includes(o)));
  const isBoundary = (line: string) => foreign.some((o) => lineMentions(line, o));
  for (let start = 0; start < lines.length; start += 1) {
    const missing = new Set(values.map((_, i) => i));
    for (let end = start; end < lines.length && !isBoundary(lines[end]!); end += 1) {
      for (const i of [...missing]) if (textGives(lines[end]!, values[i])) missing.delete(i);
      if (missing.size === 0) return true;
    }
  }
  return false;
}
