import type { PluginClauseId } from './plugin-clauses.ts';

/**
 * The monitoring-plugin convention a check plug-in's output follows (the Monitoring Plugins
 * development guidelines, "Plugin Output" and "Performance data"):
 *
 *     TEXT OF THE FIRST LINE | 'label'=value[UOM];[warn];[crit];[min];[max] …
 *     optional long text lines
 *     a long text line | more perfdata
 *     more perfdata
 *
 * Exit code 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 */

export const STATE_NAMES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;
export type StateName = (typeof STATE_NAMES)[number];

export interface PerfdataItem {
  label: string;
  value: string;
  uom: string;
  warn: string;
  crit: string;
  min: string;
  max: string;
}

/**
 * One way the output breaks the interface, with the clause it breaks (PLUGIN-FIRST-LINE,
 * PLUGIN-PERFDATA-GRAMMAR, PLUGIN-PERFDATA-NUMBERS, PLUGIN-PERFDATA-NO-EXPONENT,
 * PLUGIN-PERFDATA-UOM, PLUGIN-PERFDATA-UOM-BYTES, PLUGIN-PERFDATA-RANGES).
 */
export interface OutputProblem {
  clause: PluginClauseId;
  message: string;
}

export interface ParsedOutput {
  /** The first line without its perfdata. */
  firstLine: string;
  /** Every text line (the first one included), perfdata removed. */
  text: string;
  perfdata: PerfdataItem[];
  /** Violations, each a one-line reason with its clause; empty when the output is well-formed. */
  problems: OutputProblem[];
}

/** Units of measurement the guidelines allow (s, ms, us, %, B, KB, MB, GB, TB, c), none included. */
const UOM = '(?:s|ms|us|%|B|KB|MB|GB|TB|c)?';
/** A number in the class `[-0-9.]` of the guidelines: no exponent, no thousands separator, no comma. */
const NUMBER = '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
/** A number in scientific notation: readable, but the interface says it should not be used. */
const EXPONENT_RE = new RegExp(`^(${NUMBER}[eE][-+]?\\d+)(.*)$`);
/** Any unit of letters or `%`, to tell a wrong unit from a wrong number. */
const ANY_UNIT_RE = new RegExp(`^(${NUMBER})([A-Za-z%]+)$`);
/** Sizes the interface allows but would rather see in `B`. */
const BYTE_MULTIPLES = new Set(['KB', 'MB', 'GB', 'TB']);
/** A threshold range `[@][start:][end]`, start may be `~` (guidelines, "Threshold and ranges"). */
const RANGE = `@?(?:(?:${NUMBER}|~)?:)?(?:${NUMBER})?`;
const VALUE_RE = new RegExp(`^(${NUMBER}|U)(${UOM})$`);
const RANGE_RE = new RegExp(`^${RANGE}$`);
const NUMBER_RE = new RegExp(`^(?:${NUMBER})?$`);

/** Parses stdout of a plug-in run and checks it against the convention. */
export function parseOutput(stdout: string): ParsedOutput {
  const problems: OutputProblem[] = [];
  const lines = stdout.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const texts: string[] = [];
  const perfParts: string[] = [];
  if (stdout.trim() === '') {
    return {
      firstLine: '',
      text: '',
      perfdata: [],
      problems: [{ clause: 'PLUGIN-FIRST-LINE', message: 'no output: the first line is empty' }],
    };
  }
  let inPerf = false;
  lines.forEach((line, index) => {
    if (inPerf) {
      perfParts.push(line);
      return;
    }
    const bar = line.indexOf('|');
    if (bar < 0) {
      texts.push(line);
      return;
    }
    texts.push(line.slice(0, bar));
    perfParts.push(line.slice(bar + 1));
    // After the `|` of a long text line, every further line is perfdata.
    if (index > 0) inPerf = true;
  });
  const firstLine = (texts[0] ?? '').trimEnd();
  if (firstLine.trim() === '')
    problems.push({ clause: 'PLUGIN-FIRST-LINE', message: 'the first line has no text before its perfdata' });
  const perfdata: PerfdataItem[] = [];
  const seen = new Set<string>();
  for (const part of perfParts) {
    for (const token of splitPerfdata(part, problems)) {
      const item = parsePerfdataItem(token, problems);
      if (!item) continue;
      if (seen.has(item.label))
        problems.push({
          clause: 'PLUGIN-PERFDATA-GRAMMAR',
          message: `perfdata label '${item.label}' appears twice`,
        });
      seen.add(item.label);
      perfdata.push(item);
    }
  }
  return { firstLine, text: texts.join('\n'), perfdata, problems };
}

/** Splits perfdata on blanks, keeping quoted labels (with `''` inside) together. */
function splitPerfdata(part: string, problems: OutputProblem[]): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < part.length) {
    while (i < part.length && /\s/.test(part[i] as string)) i += 1;
    if (i >= part.length) break;
    let token = '';
    if (part[i] === "'") {
      let j = i + 1;
      for (;;) {
        const end = part.indexOf("'", j);
        if (end < 0) {
          problems.push({
            clause: 'PLUGIN-PERFDATA-GRAMMAR',
            message: `perfdata label not closed: ${part.slice(i)}`,
          });
          return tokens;
        }
        if (part[end + 1] === "'") {
          j = end + 2;
          continue;
        }
        j = end + 1;
        break;
      }
      token = part.slice(i, j);
      i = j;
    }
    while (i < part.length && !/\s/.test(part[i] as string)) token += part[i++];
    tokens.push(token);
  }
  return tokens;
}

/**
 * One `'label'=value[UOM];[warn];[crit];[min];[max]` item. The label may be quoted with single
 * quotes (required when it holds blanks; `''` is a quote inside), never holds `=`, and unquoted
 * never holds a quote. Trailing empty fields may be left out.
 */
export function parsePerfdataItem(token: string, problems: OutputProblem[]): PerfdataItem | null {
  const grammar = (message: string) => problems.push({ clause: 'PLUGIN-PERFDATA-GRAMMAR', message });
  let label: string;
  let rest: string;
  if (token.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'=(.*)$/s.exec(token);
    if (!match) {
      grammar(`perfdata item ${token}: a quoted label must be followed by =`);
      return null;
    }
    label = (match[1] as string).replace(/''/g, "'");
    rest = match[2] as string;
  } else {
    const eq = token.indexOf('=');
    if (eq < 0) {
      grammar(`perfdata item ${token}: no '=' (expected 'label'=value[UOM];[warn];[crit];[min];[max])`);
      return null;
    }
    label = token.slice(0, eq);
    rest = token.slice(eq + 1);
    if (label.includes("'")) {
      grammar(`perfdata item ${token}: a label with a quote must be quoted as a whole`);
      return null;
    }
  }
  if (label === '') {
    grammar(`perfdata item ${token}: empty label`);
    return null;
  }
  if (label.includes('=')) {
    grammar(`perfdata item ${token}: the label holds '='`);
    return null;
  }
  const fields = rest.split(';');
  if (fields.length > 5) {
    grammar(`perfdata item ${token}: more than value;warn;crit;min;max`);
    return null;
  }
  const [valueField = '', warn = '', crit = '', min = '', max = ''] = fields;
  let value = VALUE_RE.exec(valueField);
  const exponent = value ? null : EXPONENT_RE.exec(valueField);
  if (exponent) {
    problems.push({
      clause: 'PLUGIN-PERFDATA-NO-EXPONENT',
      message: `perfdata item ${token}: value '${valueField}' is in scientific notation`,
    });
    value = VALUE_RE.exec(`${Number(exponent[1])}${exponent[2]}`) ?? null;
    if (value) value[1] = exponent[1] as string;
  }
  if (!value) {
    const unit = ANY_UNIT_RE.exec(valueField);
    if (unit)
      problems.push({
        clause: 'PLUGIN-PERFDATA-UOM',
        message: `perfdata item ${token}: unit '${unit[2]}' is not one of s ms us % B KB MB GB TB c`,
      });
    else
      problems.push({
        clause: 'PLUGIN-PERFDATA-NUMBERS',
        message: `perfdata item ${token}: value '${valueField}' is not a number of [-0-9.] with an allowed unit (or U)`,
      });
    return null;
  }
  const uom = value[2] as string;
  if (BYTE_MULTIPLES.has(uom))
    problems.push({
      clause: 'PLUGIN-PERFDATA-UOM-BYTES',
      message: `perfdata item ${token}: size in ${uom}; the interface prefers B`,
    });
  for (const [name, field] of [
    ['warn', warn],
    ['crit', crit],
  ] as const) {
    if (!RANGE_RE.test(field)) {
      problems.push({
        clause: 'PLUGIN-PERFDATA-RANGES',
        message: `perfdata item ${token}: ${name} '${field}' is not a threshold range`,
      });
      return null;
    }
  }
  for (const [name, field] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (!NUMBER_RE.test(field)) {
      problems.push({
        clause: 'PLUGIN-PERFDATA-NUMBERS',
        message: `perfdata item ${token}: ${name} '${field}' is not a number`,
      });
      return null;
    }
  }
  return { label, value: value[1] as string, uom, warn, crit, min, max };
}

/**
 * Whether the run crashed rather than reported: it died by a signal, or its output carries a
 * traceback (Python's `Traceback (most recent call last):`, a Java/JS stack `    at …(file:line)`,
 * Perl's `… at FILE line N.` from die). A traceback counts whatever the exit code: Python exits 1
 * on an uncaught exception, a wrapper may turn it into 3 UNKNOWN; both are crashes.
 */
export function crashReason(run: {
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}): string | null {
  if (run.signal) return `died by signal ${run.signal}`;
  const output = `${run.stdout}\n${run.stderr}`;
  if (/Traceback \(most recent call last\)/.test(output)) return 'a Python traceback in its output';
  if (/^\s+at .+[(\s][^()\s]+:\d+(?::\d+)?\)?$/m.test(output) && /\b\w*(Error|Exception)\b/.test(output))
    return 'a stack trace in its output';
  if (/^Exception in thread /m.test(output)) return 'a Java stack trace in its output';
  if (/\b(?:died|[Dd]ied) at \S+ line \d+\.?$/m.test(output) || /^.+ at \S+\.p[lm] line \d+\.$/m.test(output))
    return 'a Perl die message (`at FILE line N.`) in its output';
  if (/: (?:line \d+: )?[^\s:]+: (?:command )?not found$/m.test(output))
    return 'a shell `command not found` in its output';
  return null;
}

/** `OK`…`UNKNOWN` for 0…3, else `null`. */
export function stateOfExitCode(code: number | null): StateName | null {
  return code !== null && code >= 0 && code <= 3 ? (STATE_NAMES[code] as StateName) : null;
}
