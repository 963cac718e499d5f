import { parseLocalLine } from '../../src/agent-text/index.ts';

/** A `<<<local>>>` line taken apart. */
export interface LocalLine {
  status: 0 | 1 | 2;
  name: string;
  /** Empty when the line has none (MON-UNSPEC-LOCAL-DETAILS leaves texts open). */
  text: string;
}

export type LocalLineCheck = { ok: true; line: LocalLine } | { ok: false; reason: string };

/**
 * Checks one line against MON-LOCAL-LINE-SHAPE: the project's local-check parser
 * (src/agent-text, the grammar consumers use: metrics `-` or `name=value[;warn[;crit[;min[;max]]]]`
 * joined by `|`, metric names without space, `:`, `/`, `\`) plus what the spec's shape
 * `<status 0-2> "<service name>" <metrics> <text>` narrows: status 0 to 2 only (no `3` or `P`)
 * and the name in double quotes. The text is optional.
 */
export function checkLocalLine(line: string): LocalLineCheck {
  const parsed = parseLocalLine(line);
  if ('error' in parsed) return { ok: false, reason: parsed.error };
  if (parsed.cached) return { ok: false, reason: 'a `cached(…)` prefix is not part of the shape' };
  if (parsed.status !== 0 && parsed.status !== 1 && parsed.status !== 2) {
    return { ok: false, reason: `status ${parsed.status} is not 0, 1 or 2` };
  }
  if (parsed.nameQuoting !== 'double')
    return { ok: false, reason: 'the service name is not in double quotes' };
  return { ok: true, line: { status: parsed.status, name: parsed.name, text: parsed.text } };
}
