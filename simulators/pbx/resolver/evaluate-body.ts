import type { FieldMappings, ResolverParser } from '../state/provider-config.ts';
import type { ResolvedName } from '../state/resolver-state.ts';
import { composeName } from './field-mappings.ts';
import { applyFormatter } from './formatter.ts';
import { decodeHtml } from './html-decode.ts';
import { type RegexNote, readJavaRegex } from './java-regex-check.ts';
import { MatcherRunner } from './matcher-runner.ts';

/** Bound on the match excerpt a hit keeps for the log and the report. */
const EXCERPT_CHARS = 200;

/** What one parser made of the body. */
export interface ParserHit {
  index: number;
  matcher: string;
  formatter: string;
  /** Whether the matcher found anything. */
  matched: boolean;
  /** The whole match, cut to 200 characters. */
  match: string | null;
  /** The index variable: formatter result, HTML-decoded and trimmed. */
  result: string;
  /** Matches in the body (counted up to `countUpTo`); only the first is used. */
  matchCount: number;
  optionUi: boolean;
  notes: RegexNote[];
  /** Why the parser could not run, if it could not. */
  error: string | null;
}

export interface Evaluation {
  hits: ParserHit[];
  /** Index variables `{0}`, `{1}`, … in parser order (RESOLVER-EVAL-PARSER-ORDER). */
  variables: string[];
  /** At least one non-empty parser result (RESOLVER-RESOLVED). */
  resolved: boolean;
  name: ResolvedName;
  /** Option-UI values by variable index (RESOLVER-EVAL-OPTION-UI). */
  uiValues: Record<string, string>;
}

export interface EvaluateOptions {
  matcherMs: number;
  /** Count further matches up to this number (the check's "several records" pitfall); default 1. */
  countUpTo?: number;
}

/**
 * The two-stage evaluation of a 2xx body (web-resolver.md, "Evaluation in two stages"): each
 * parser in order takes the first match of its matcher (DOTALL, MULTILINE, read as Java would,
 * see java-regex-check.ts), applies the formatter, HTML-decodes and trims the result
 * (RESOLVER-EVAL-HTML-DECODE, RESOLVER-EVAL-TRIM); then the field mappings compose the name.
 * A parser whose matcher JavaScript cannot run yields the empty string and says why.
 */
export async function evaluateBody(
  body: string,
  parsers: readonly ResolverParser[],
  mappings: FieldMappings,
  options: EvaluateOptions,
): Promise<Evaluation> {
  const runner = new MatcherRunner(body, options.matcherMs);
  const hits: ParserHit[] = [];
  for (const [index, parser] of parsers.entries())
    hits.push(await evaluateParser(runner, parser, index, options));
  const variables = hits.map((h) => h.result);
  const uiValues: Record<string, string> = {};
  for (const hit of hits) if (hit.optionUi && hit.result !== '') uiValues[String(hit.index)] = hit.result;
  return {
    hits,
    variables,
    resolved: variables.some((v) => v !== ''),
    name: composeName(mappings, variables),
    uiValues,
  };
}

/** One parser on the body: its first match, formatted, decoded and trimmed. */
async function evaluateParser(
  runner: MatcherRunner,
  parser: ResolverParser,
  index: number,
  options: EvaluateOptions,
): Promise<ParserHit> {
  const reading = readJavaRegex(parser.matcher);
  const hit: ParserHit = {
    index,
    matcher: parser.matcher,
    formatter: parser.formatter,
    matched: false,
    match: null,
    result: '',
    matchCount: 0,
    optionUi: parser.optionUi ?? false,
    notes: reading.notes,
    error: null,
  };
  const blocker = reading.notes.find((n) => n.kind === 'cannot-run');
  if (blocker) {
    hit.error = `the matcher uses ${blocker.construct}, which JavaScript cannot run: ${blocker.message}`;
    return hit;
  }
  const run = await runner.run(reading.source, reading.flags, options.countUpTo ?? 1);
  if (!run.ok) {
    hit.error = run.message;
    return hit;
  }
  hit.matchCount = run.count;
  if (!run.match) return hit;
  hit.matched = true;
  const whole = run.match.groups[0] ?? '';
  hit.match = whole.length > EXCERPT_CHARS ? `${whole.slice(0, EXCERPT_CHARS)}…` : whole;
  hit.result = decodeHtml(applyFormatter(parser.formatter, run.match.groups)).trim();
  return hit;
}
