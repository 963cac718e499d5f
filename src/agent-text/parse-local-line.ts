/** One metric of a local check, `name=value[unit][;warn[;crit[;min[;max]]]]`. */
export interface LocalMetric {
  name: string;
  value: number;
  /** Unit of measure written after the value (`16MB` gives `MB`); absent when there is none. */
  unit?: string;
  /** Upper levels; a range `lo:hi` gives `hi` here and `lo` in `warnLower` / `critLower`. */
  warn?: number;
  crit?: number;
  warnLower?: number;
  critLower?: number;
  min?: number;
  max?: number;
}

/** One parsed `<<<local>>>` line. */
export interface LocalCheckLine {
  /** 0 OK, 1 WARN, 2 CRIT, 3 UNKNOWN, `P` computed from the metric levels. */
  status: 0 | 1 | 2 | 3 | 'P';
  name: string;
  /** How the name was written. */
  nameQuoting: 'bare' | 'double' | 'single';
  metrics: LocalMetric[];
  /** The text as written (a literal backslash-`n` kept). Empty when the line has none. */
  text: string;
  /** The text up to the first literal `\n`. */
  summary: string;
  /** The long output: the text after the first literal `\n`, with each `\n` made a newline. */
  details: string;
  /** `cached(<epoch>,<interval>)` prefix, when present. */
  cached?: { since: number; interval: number };
}

const LINE = /^(?:cached\((\d+),(\d+)\) +)?([^ ]+) ("[^"']+"|'[^"']+'|[^ "']+) ([^ ]+)(?: +(.*))?$/;
const METRIC_NAME = /^[^\s:/\\=|;]+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

/**
 * Parses one local-check line with the grammar of test-vectors.md, which is Checkmk's:
 * `STATE NAME METRICS [TEXT]` with STATE one of `0 1 2 3 P`; NAME a bare token or `"…"` (Checkmk
 * also accepts `'…'`) with no `"` or `'` inside and no escaping; METRICS `-` or
 * `name=value[;warn[;crit[;min[;max]]]]` joined by `|` without spaces, metric names without
 * space, `:`, `/`, `\`; levels may be ranges `lo:hi`; a literal `\n` in TEXT starts the long
 * output. An optional `cached(<epoch>,<interval>) ` prefix is accepted. Anything else gives
 * `{ error }` (a Checkmk server would show such a line as an UNKNOWN service).
 */
export function parseLocalLine(line: string): LocalCheckLine | { error: string } {
  const match = LINE.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (!match) return { error: `not of the form STATE NAME METRICS [TEXT]: ${JSON.stringify(line)}` };
  const [, since, interval, rawStatus = '', rawName = '', rawMetrics = '', rawText] = match;
  const status = parseStatus(rawStatus);
  if (status === undefined) return { error: `state '${rawStatus}' is not one of 0 1 2 3 P` };
  const metrics = rawMetrics === '-' ? [] : parseMetrics(rawMetrics);
  if ('error' in metrics) return metrics;
  const quote = rawName[0];
  const nameQuoting = quote === '"' ? 'double' : quote === "'" ? 'single' : 'bare';
  const text = rawText ?? '';
  const cut = text.indexOf('\\n');
  const result: LocalCheckLine = {
    status,
    name: nameQuoting === 'bare' ? rawName : rawName.slice(1, -1),
    nameQuoting,
    metrics,
    text,
    summary: cut < 0 ? text : text.slice(0, cut),
    details: cut < 0 ? '' : text.slice(cut + 2).replaceAll('\\n', '\n'),
  };
  if (since !== undefined && interval !== undefined)
    result.cached = { since: Number(since), interval: Number(interval) };
  return result;
}

function parseStatus(raw: string): LocalCheckLine['status'] | undefined {
  if (raw === 'P') return 'P';
  if (raw === '0' || raw === '1' || raw === '2' || raw === '3') return Number(raw) as 0 | 1 | 2 | 3;
  return undefined;
}

function parseMetrics(raw: string): LocalMetric[] | { error: string } {
  const metrics: LocalMetric[] = [];
  for (const entry of raw.split('|')) {
    const metric = parseMetric(entry);
    if ('error' in metric) return metric;
    metrics.push(metric);
  }
  return metrics;
}

function parseMetric(entry: string): LocalMetric | { error: string } {
  const eq = entry.indexOf('=');
  if (eq <= 0) return { error: `metric '${entry}' is not name=value` };
  const name = entry.slice(0, eq);
  if (!METRIC_NAME.test(name)) return { error: `metric name '${name}' contains a space, ':', '/' or '\\'` };
  const fields = entry.slice(eq + 1).split(';');
  if (fields.length > 5) return { error: `metric '${entry}' has more than value;warn;crit;min;max` };
  const [rawValue = '', warn, crit, min, max] = fields;
  const number = NUMBER.exec(rawValue);
  if (!number) return { error: `metric '${name}' has no numeric value` };
  const metric: LocalMetric = { name, value: Number(number[0]) };
  const unit = rawValue.slice(number[0].length);
  if (unit !== '') metric.unit = unit;
  const levels = [
    ['warn', 'warnLower', warn],
    ['crit', 'critLower', crit],
  ] as const;
  for (const [upper, lower, text] of levels) {
    if (text === undefined || text === '') continue;
    const range = text.split(':');
    if (range.length > 2) return { error: `metric '${name}' has a bad level '${text}'` };
    const hi = range.at(-1) ?? '';
    const lo = range.length === 2 ? (range[0] ?? '') : '';
    if (!isNumberOrEmpty(hi) || !isNumberOrEmpty(lo))
      return { error: `metric '${name}' has a bad level '${text}'` };
    if (hi !== '') metric[upper] = Number(hi);
    if (lo !== '') metric[lower] = Number(lo);
  }
  for (const [key, text] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (text === undefined || text === '') continue;
    if (!isNumberOrEmpty(text)) return { error: `metric '${name}' has a bad ${key} '${text}'` };
    metric[key] = Number(text);
  }
  return metric;
}

function isNumberOrEmpty(text: string): boolean {
  return text === '' || NUMBER.exec(text)?.[0] === text;
}
