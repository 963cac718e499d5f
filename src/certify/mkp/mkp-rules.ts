/**
 * The rules `certify-plugin --mkp` holds an agent-based Checkmk plug-in package to, beyond the
 * `PLUGIN-` clauses of the spec catalog that apply to it. These ids are this project's own, not
 * clauses of `clauses.yaml` (the spec catalog is never edited for them): each rule names its source
 * in Checkmk's published developer guidelines or plug-in API reference, and the report carries
 * that source with the verdict, so no rule is presented as a spec clause. docs/mkp-plugin-rules.md
 * states each rule with its source and how it is judged.
 */

/** `must`: a broken rule fails the certification; `should`: reported, never fails it. */
export type RuleLevel = 'must' | 'should';

export interface ProjectRule {
  id: string;
  /** Where the rule is written down: this project's document of the rules. */
  spec: string;
  /** The heading of that document the rule sits under. */
  section: string;
  rule: string;
  level: RuleLevel;
  /** The published text the rule follows (document, section). */
  source: string;
}

const DOC = 'docs/mkp-plugin-rules.md';
const GUIDELINES = 'Checkmk, "Guidelines for coding check plug-ins" (docs.checkmk.com, dev_guidelines)';
const API = 'Checkmk, "Checkmk\'s Plug-in APIs", Agent based ("Check API") Version 2 (cmk.agent_based.v2)';
const MKPS = 'Checkmk, "Checkmk extension packages (MKPs)" (docs.checkmk.com, mkps and devel_mkps)';

/** The project-owned rules, in the order the reports list them. */
export const MKP_PLUGIN_RULES: readonly ProjectRule[] = [
  {
    id: 'MKP-PLUGIN-PACKAGE-VALID',
    spec: DOC,
    section: 'The package',
    rule: 'The package is a gzip-compressed tar holding `info` and `info.json`; `info.json` names the package, its version and, per part, its files; each part is a `<part>.tar` member holding exactly the files the manifest lists, with relative paths and regular files only.',
    level: 'must',
    source: `${MKPS}: the package's manifest and one tar per part`,
  },
  {
    id: 'MKP-PLUGIN-LOADS',
    spec: DOC,
    section: 'The package',
    rule: 'Every module of `cmk_addons_plugins/<family>/agent_based/` imports against `cmk.agent_based.v2`; the package defines at least one check plug-in; section and plug-in names are unique and made of `A-Z a-z 0-9 _`; parse, discovery and check functions take the arguments the reference prescribes (`item` if and only if the service name has `%s`).',
    level: 'must',
    source: `${API}: AgentSection, CheckPlugin, entry_point_prefixes()`,
  },
  {
    id: 'MKP-PLUGIN-MALFORMED-RAISES',
    spec: DOC,
    section: 'Agent text',
    rule: 'When a section the package parses has its number fields replaced by a word, the plug-ins on that section raise an exception in parse, discovery or check, or report exactly what they report on the well-formed text; they never make up a result from fields they could not read.',
    level: 'must',
    source: `${GUIDELINES}, "Check plug-in behavior" › "Exceptions" and "saveint() and savefloat()"`,
  },
  {
    id: 'MKP-PLUGIN-RESULT-TEXT',
    spec: DOC,
    section: 'Results and metrics',
    rule: 'The check of every discovered service yields at least one `Result`, and every `Result` has a `State` and a non-empty `summary` or `notice` (a summary without a newline).',
    level: 'must',
    source: `${API}: Result; ${GUIDELINES}, "Check plug-in output"`,
  },
  {
    id: 'MKP-PLUGIN-METRIC-NAMES',
    spec: DOC,
    section: 'Results and metrics',
    rule: 'Metric names consist of lower-case letters, digits and underscores and do not start with a digit.',
    level: 'must',
    source: `${GUIDELINES}, "Metrics" › "Naming the metrics"`,
  },
  {
    id: 'MKP-PLUGIN-METRIC-UNITS',
    spec: DOC,
    section: 'Results and metrics',
    rule: 'Metrics use canonical units (seconds, bytes, percent 0-100, octets per second, watt): no metric name ends in a non-canonical unit (`_ms`, `_kb`, `_mib`, `_bits`, `_minutes`, …), and no metric passes on a served millisecond or kilobyte figure unconverted.',
    level: 'should',
    source: `${GUIDELINES}, "Metrics" › "Naming the metrics" (canonical size table)`,
  },
  {
    id: 'MKP-PLUGIN-MISSING-ITEM',
    spec: DOC,
    section: 'Items and discovery',
    rule: 'The check of a plug-in with items, called for an item the agent text does not hold, yields no `Result` and no `Metric` and raises nothing (Checkmk then reports the item as not found).',
    level: 'must',
    source: `${GUIDELINES}, "Check plug-in behavior" › "Item not found"`,
  },
  {
    id: 'MKP-PLUGIN-DISCOVERY-STABLE',
    spec: DOC,
    section: 'Items and discovery',
    rule: 'Discovery is stable: the same agent text discovered twice, and two scenarios serving the same PBX state, give the same services.',
    level: 'must',
    source: `${API}: CheckPlugin discovery_function (services are discovered once and then checked on every run)`,
  },
];

/**
 * The `PLUGIN-` clauses of the spec catalog (plugin-interface.md) that apply to an agent-based
 * plug-in, and how each is read for one. The others are about a command's process and output
 * (exit code, first line, perfdata, `--help`, own timeout, locale, output size), which an
 * agent-based plug-in does not have: Checkmk runs its functions and renders their results.
 */
export const APPLICABLE_PLUGIN_CLAUSES: ReadonlyMap<string, string> = new Map([
  ['PLUGIN-NO-CRASH', 'no exception in a parse, discovery or check function on agent text the PBX served'],
  ['PLUGIN-KNOWN-WHEN-SERVED', 'on `healthy` every discovered service has a state other than UNKNOWN'],
  ['PLUGIN-IGNORES-UNKNOWN', '`extension` gives the same services with the same states as `healthy`'],
  [
    'PLUGIN-FIGURES-FOLLOW-SERVED',
    'a metric value that equals a served figure in one state follows it in every other',
  ],
]);

export function mkpRule(id: string): ProjectRule {
  const rule = MKP_PLUGIN_RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`unknown project rule ${id}`);
  return rule;
}
