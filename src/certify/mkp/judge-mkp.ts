import type { EvidenceAttachment } from '../../report/attachments.ts';
import { APPLICABLE_PLUGIN_CLAUSES, MKP_PLUGIN_RULES, type RuleLevel } from './mkp-rules.ts';
import type { PluginError, RunnerOutcome, ServiceRecord, TextRun } from './run-agent-plugins.ts';
import { followsFigure, matchingFigures, type ServedFigures, servedFigures } from './served-figures.ts';

/** One catalog scenario (or generated state) as the package's plug-ins saw it. */
export interface MkpScenarioRun {
  scenario: string;
  description: string;
  /** The agent text a Checkmk fetcher got; null: the connection was refused. */
  servedText: string | null;
  /** What the runner reported for that text; null when it gave nothing (see `failure`). */
  run: TextRun | null;
  /** The runner hung or died on this text (the plug-ins' fault). */
  failure?: string;
  /** The harness could not set the scenario up (never the plug-ins' fault: not judged). */
  harnessProblem?: string;
}

export type MkpVerdict = 'pass' | 'fail' | 'not-verifiable';

/** One finding of a rule in one scenario. */
export interface RuleFinding {
  scenario: string;
  passed: boolean;
  message: string;
  evidence?: EvidenceAttachment[];
}

/** One verdict per rule (project rule or applicable PLUGIN clause), with what earned it. */
export interface RuleVerdict {
  id: string;
  level: RuleLevel;
  verdict: MkpVerdict;
  /** Why it failed, or why it could not be judged. */
  reasons: string[];
  findings: RuleFinding[];
}

export interface MkpJudgeInput {
  /** MKP-PLUGIN-PACKAGE-VALID's problems; empty when the package is valid. */
  packageProblems: string[];
  /** The runner's load report; null when the package was not valid (nothing was loaded). */
  load: RunnerOutcome['load'] | null;
  runs: MkpScenarioRun[];
  /** Pairs of scenarios that serve the same PBX state (`slow-answer` serves `healthy`'s). */
  sameState?: [string, string][];
}

/** The catalog's `level` of the applicable PLUGIN clauses (features/clauses.yaml; all four are `must`). */
const PLUGIN_LEVELS: Record<string, RuleLevel> = {
  'PLUGIN-NO-CRASH': 'must',
  'PLUGIN-KNOWN-WHEN-SERVED': 'must',
  'PLUGIN-IGNORES-UNKNOWN': 'must',
  'PLUGIN-FIGURES-FOLLOW-SERVED': 'must',
};

const METRIC_NAME = /^[a-z][a-z0-9_]*$/;
/** Metric name endings that name a unit other than Checkmk's canonical one (guidelines' table). */
const NON_CANONICAL =
  /_(ms|msec|millis|us|usec|ns|kb|mb|gb|tb|kib|mib|gib|tib|kbytes|mbytes|bits|kbit|mbit|bps|mw|kw|minutes|hours|days|permille)$/;
/** Served keys whose figures are in a non-canonical unit (milliseconds, kilobytes). */
const NON_CANONICAL_SERVED = /_(ms|kb|kib)\/\d+(\.\d+)?$/;

function describeError(e: PluginError): string {
  const where = [
    e.section && `section ${e.section}`,
    e.plugin && `plug-in ${e.plugin}`,
    e.item && `item ${e.item}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${e.phase}${where ? ` (${where})` : ''} raised ${e.type}: ${e.message}`;
}

function errorEvidence(e: PluginError): EvidenceAttachment {
  return {
    exchange: `${e.phase} function`,
    response: e.traceback,
    details: { type: e.type, message: e.message },
  };
}

function serviceTable(services: ServiceRecord[]): string {
  return services
    .map((s) => {
      const state =
        s.state === null ? (s.ignored ? 'stale' : 'no result') : ['OK', 'WARN', 'CRIT', 'UNKNOWN'][s.state];
      const metrics = s.metrics.map((m) => `${m.name}=${m.value}`).join(' ');
      return `${s.name}: ${state}${metrics ? ` | ${metrics}` : ''}`;
    })
    .join('\n');
}

/** The scenarios where the plug-ins ran on served sections (nothing served: no plug-in runs). */
function ranOn(runs: MkpScenarioRun[]): (MkpScenarioRun & { run: TextRun })[] {
  return runs.filter((r): r is MkpScenarioRun & { run: TextRun } => r.run !== null);
}

/**
 * Judges the package's runs: one verdict per project rule and per applicable PLUGIN clause. A
 * rule no run could judge (the package did not load, nothing was served) is not verifiable.
 */
export function judgeMkp(input: MkpJudgeInput): RuleVerdict[] {
  const verdicts: RuleVerdict[] = [];
  const add = (id: string, level: RuleLevel, findings: RuleFinding[], unjudged: string) => {
    const failed = findings.filter((f) => !f.passed);
    verdicts.push({
      id,
      level,
      verdict: findings.length === 0 ? 'not-verifiable' : failed.length > 0 ? 'fail' : 'pass',
      reasons: findings.length === 0 ? [unjudged] : failed.map((f) => `${f.scenario}: ${f.message}`),
      findings,
    });
  };
  const level = (id: string) =>
    MKP_PLUGIN_RULES.find((r) => r.id === id)?.level ?? PLUGIN_LEVELS[id] ?? 'must';
  const loaded = input.load !== null && input.load.errors.length === 0 && input.load.problems.length === 0;
  const notLoaded =
    input.load === null ? 'the package is not valid, so nothing was loaded' : 'the package did not load';
  const runs = loaded ? ranOn(input.runs) : [];

  add(
    'MKP-PLUGIN-PACKAGE-VALID',
    level('MKP-PLUGIN-PACKAGE-VALID'),
    input.packageProblems.length > 0
      ? input.packageProblems.map((p) => ({ scenario: 'package', passed: false, message: p }))
      : [{ scenario: 'package', passed: true, message: 'valid package' }],
    '',
  );
  add(
    'MKP-PLUGIN-LOADS',
    level('MKP-PLUGIN-LOADS'),
    input.load === null
      ? []
      : input.load.errors.length + input.load.problems.length > 0
        ? [
            ...input.load.errors.map((e) => ({
              scenario: 'load',
              passed: false,
              message: describeError(e),
              evidence: [errorEvidence(e)],
            })),
            ...input.load.problems.map((p) => ({ scenario: 'load', passed: false, message: p })),
          ]
        : [
            {
              scenario: 'load',
              passed: true,
              message: `${input.load.sections.length} agent sections, ${input.load.checks.length} check plug-ins`,
            },
          ],
    notLoaded,
  );

  // Exceptions on served text: PLUGIN-NO-CRASH; API misuse goes to its own rule.
  const crash: RuleFinding[] = [];
  const resultText: RuleFinding[] = [];
  const metricNames: RuleFinding[] = [];
  const metricUnits: RuleFinding[] = [];
  for (const r of loaded ? input.runs : []) {
    if (r.failure) {
      crash.push({ scenario: r.scenario, passed: false, message: r.failure });
      continue;
    }
    if (!r.run) continue;
    const byRule = (rule: string | null) => r.run?.errors.filter((e) => e.apiRule === rule) ?? [];
    const plain = r.run.errors.filter((e) => e.apiRule !== 'result-text' && e.apiRule !== 'metric-name');
    crash.push(
      plain.length > 0
        ? {
            scenario: r.scenario,
            passed: false,
            message: plain.map(describeError).join('; '),
            evidence: plain.slice(0, 3).map(errorEvidence),
          }
        : { scenario: r.scenario, passed: true, message: `${r.run.services.length} services checked` },
    );
    const textErrors = byRule('result-text');
    const silent = r.run.services.filter((s) => !s.error && !s.ignored && s.results.length === 0);
    resultText.push(
      textErrors.length + silent.length > 0
        ? {
            scenario: r.scenario,
            passed: false,
            message: [
              ...textErrors.map(describeError),
              ...silent.map((s) => `${s.name} was discovered but its check yields no Result`),
            ].join('; '),
            evidence: textErrors.slice(0, 3).map(errorEvidence),
          }
        : { scenario: r.scenario, passed: true, message: 'every service has results with text' },
    );
    const nameErrors = byRule('metric-name');
    const metrics = r.run.services.flatMap((s) => s.metrics.map((m) => ({ service: s.name, metric: m })));
    const badNames = [
      ...new Set(metrics.filter((m) => !METRIC_NAME.test(m.metric.name)).map((m) => m.metric.name)),
    ];
    metricNames.push(
      nameErrors.length + badNames.length > 0
        ? {
            scenario: r.scenario,
            passed: false,
            message: [
              ...nameErrors.map(describeError),
              ...(badNames.length > 0
                ? [`metric names not lower_case_with_underscores: ${badNames.join(', ')}`]
                : []),
            ].join('; '),
          }
        : { scenario: r.scenario, passed: true, message: `${metrics.length} metrics, all names valid` },
    );
    const figures = r.servedText ? servedFigures(r.servedText) : new Map<string, number>();
    const unitNames = [
      ...new Set(metrics.filter((m) => NON_CANONICAL.test(m.metric.name)).map((m) => m.metric.name)),
    ];
    const unconverted = metrics.flatMap((m) =>
      matchingFigures(m.metric.value, figures)
        .filter((f) => f.scale === 1 && NON_CANONICAL_SERVED.test(f.key))
        .map((f) => `${m.service}: ${m.metric.name}=${m.metric.value} is the served ${f.key} unconverted`),
    );
    metricUnits.push(
      unitNames.length + unconverted.length > 0
        ? {
            scenario: r.scenario,
            passed: false,
            message: [
              ...(unitNames.length > 0
                ? [`metric names with a non-canonical unit: ${unitNames.join(', ')}`]
                : []),
              ...unconverted.slice(0, 5),
            ].join('; '),
          }
        : { scenario: r.scenario, passed: true, message: 'canonical units' },
    );
  }
  add(
    'PLUGIN-NO-CRASH',
    level('PLUGIN-NO-CRASH'),
    crash,
    loaded ? 'nothing was served in any scenario' : notLoaded,
  );

  const malformed: RuleFinding[] = [];
  const missing: RuleFinding[] = [];
  const stable: RuleFinding[] = [];
  for (const r of runs) {
    if (r.run.errors.length > 0) continue;
    for (const f of r.run.malformed ?? []) {
      const madeUp = !f.raised && (f.changed?.length ?? 0) > 0;
      malformed.push({
        scenario: r.scenario,
        passed: !madeUp,
        message: f.raised
          ? `<<<${f.section}>>> with ${f.fieldsReplaced} number fields replaced: ${describeError(f.raised)}`
          : madeUp
            ? `<<<${f.section}>>> with ${f.fieldsReplaced} number fields replaced by a word: no exception, and ${f.changed
                ?.map((c) => c.service)
                .join(', ')} reported something else than on the well-formed text (made-up data)`
            : `<<<${f.section}>>>: the plug-ins do not read its number fields (same outcome)`,
        ...(madeUp
          ? {
              evidence: (f.changed ?? []).slice(0, 3).map((c) => ({
                exchange: `${c.service} on malformed <<<${f.section}>>>`,
                request: JSON.stringify(c.wellFormed),
                response: JSON.stringify(c.malformed),
                details: { wellFormed: c.wellFormed, malformed: c.malformed },
              })),
            }
          : {}),
      });
    }
    for (const probe of r.run.missingItem ?? []) {
      const madeUp = probe.results.length + probe.metrics.length > 0;
      missing.push({
        scenario: r.scenario,
        passed: !madeUp && !probe.error,
        message: probe.error
          ? `${probe.plugin} on a missing item: ${describeError(probe.error)}`
          : madeUp
            ? `${probe.plugin} made up ${probe.results.length} results and ${probe.metrics.length} metrics for the missing item "${probe.item}": ${probe.results
                .map((x) => `${['OK', 'WARN', 'CRIT', 'UNKNOWN'][x.state]} "${x.details}"`)
                .join('; ')}`
            : `${probe.plugin} yields nothing for a missing item`,
        ...(probe.error ? { evidence: [errorEvidence(probe.error)] } : {}),
      });
    }
    if (r.run.discoveryRepeat) {
      const { same, first, second } = r.run.discoveryRepeat;
      stable.push({
        scenario: r.scenario,
        passed: same,
        message: same
          ? `the same ${first.length} services when discovered twice`
          : `discovered twice, the services differ: first ${first.join(', ')}; then ${second.join(', ')}`,
      });
    }
  }
  for (const [a, b] of input.sameState ?? []) {
    const ra = runs.find((r) => r.scenario === a);
    const rb = runs.find((r) => r.scenario === b);
    if (!ra || !rb || ra.run.errors.length + rb.run.errors.length > 0) continue;
    const na = ra.run.services.map((s) => s.name).sort();
    const nb = rb.run.services.map((s) => s.name).sort();
    const same = JSON.stringify(na) === JSON.stringify(nb);
    stable.push({
      scenario: b,
      passed: same,
      message: same
        ? `the same services as ${a} (same PBX state)`
        : `other services than ${a} for the same PBX state: only in ${a}: ${na.filter((n) => !nb.includes(n)).join(', ') || '-'}; only in ${b}: ${nb.filter((n) => !na.includes(n)).join(', ') || '-'}`,
    });
  }
  add(
    'MKP-PLUGIN-MALFORMED-RAISES',
    level('MKP-PLUGIN-MALFORMED-RAISES'),
    malformed,
    loaded ? 'no section with number fields was served' : notLoaded,
  );
  add(
    'MKP-PLUGIN-RESULT-TEXT',
    level('MKP-PLUGIN-RESULT-TEXT'),
    resultText,
    loaded ? 'nothing was served' : notLoaded,
  );
  add(
    'MKP-PLUGIN-METRIC-NAMES',
    level('MKP-PLUGIN-METRIC-NAMES'),
    metricNames,
    loaded ? 'nothing was served' : notLoaded,
  );
  add(
    'MKP-PLUGIN-METRIC-UNITS',
    level('MKP-PLUGIN-METRIC-UNITS'),
    metricUnits,
    loaded ? 'nothing was served' : notLoaded,
  );
  add(
    'MKP-PLUGIN-MISSING-ITEM',
    level('MKP-PLUGIN-MISSING-ITEM'),
    missing,
    loaded ? 'the package has no plug-in with items on the served sections' : notLoaded,
  );
  add(
    'MKP-PLUGIN-DISCOVERY-STABLE',
    level('MKP-PLUGIN-DISCOVERY-STABLE'),
    stable,
    loaded ? 'no scenario discovered services' : notLoaded,
  );

  // PLUGIN-KNOWN-WHEN-SERVED: healthy serves every section with known values.
  const healthy = runs.find((r) => r.scenario === 'healthy');
  const known: RuleFinding[] = [];
  if (healthy && healthy.run.errors.length === 0) {
    const unknown = healthy.run.services.filter((s) => s.state === 3 || (s.state === null && !s.ignored));
    known.push(
      healthy.run.services.length === 0
        ? {
            scenario: 'healthy',
            passed: false,
            message: 'no service was discovered although every PBX section was served',
          }
        : unknown.length > 0
          ? {
              scenario: 'healthy',
              passed: false,
              message: `UNKNOWN (or no result) although every section was served with known values: ${unknown.map((s) => s.name).join(', ')}`,
              evidence: [{ exchange: 'services on healthy', response: serviceTable(healthy.run.services) }],
            }
          : {
              scenario: 'healthy',
              passed: true,
              message: `${healthy.run.services.length} services, none UNKNOWN`,
            },
    );
  }
  add(
    'PLUGIN-KNOWN-WHEN-SERVED',
    level('PLUGIN-KNOWN-WHEN-SERVED'),
    known,
    loaded ? 'healthy did not run cleanly' : notLoaded,
  );

  // PLUGIN-IGNORES-UNKNOWN: extension against its plain twin healthy, services and states.
  const extension = runs.find((r) => r.scenario === 'extension');
  const ignores: RuleFinding[] = [];
  if (healthy && extension) {
    const plain = new Map(healthy.run.services.map((s) => [s.name, s.state]));
    const extended = new Map(extension.run.services.map((s) => [s.name, s.state]));
    const diffs: string[] = [];
    for (const [name, state] of plain)
      if (!extended.has(name)) diffs.push(`${name} is gone`);
      else if (extended.get(name) !== state) diffs.push(`${name}: ${state} → ${extended.get(name)}`);
    for (const name of extended.keys()) if (!plain.has(name)) diffs.push(`${name} is new`);
    const crashed = extension.run.errors.length > 0;
    ignores.push(
      diffs.length > 0 || crashed
        ? {
            scenario: 'extension',
            passed: false,
            message: crashed
              ? `unknown sections and keys make the plug-ins raise: ${extension.run.errors.map(describeError).join('; ')}`
              : `unknown sections and keys change the services or states of healthy: ${diffs.join('; ')}`,
            evidence: [
              { exchange: 'services on healthy', response: serviceTable(healthy.run.services) },
              { exchange: 'services on extension', response: serviceTable(extension.run.services) },
            ],
          }
        : {
            scenario: 'extension',
            passed: true,
            message: `the same ${plain.size} services and states as healthy`,
          },
    );
  }
  add(
    'PLUGIN-IGNORES-UNKNOWN',
    level('PLUGIN-IGNORES-UNKNOWN'),
    ignores,
    loaded ? 'healthy or extension did not run' : notLoaded,
  );

  add(
    'PLUGIN-FIGURES-FOLLOW-SERVED',
    level('PLUGIN-FIGURES-FOLLOW-SERVED'),
    judgeFigures(runs),
    loaded ? 'no metric was reported' : notLoaded,
  );
  return verdicts;
}

/**
 * PLUGIN-FIGURES-FOLLOW-SERVED read for metrics: a metric that equals a served figure in one
 * scenario must not keep that value in another scenario where the same figure was served
 * different (an earlier answer kept, or a number not read from this run's text). Judged per
 * service and metric over every pair of scenarios.
 */
function judgeFigures(runs: (MkpScenarioRun & { run: TextRun })[]): RuleFinding[] {
  const findings: RuleFinding[] = [];
  const served = new Map<string, ServedFigures>();
  for (const r of runs) served.set(r.scenario, r.servedText ? servedFigures(r.servedText) : new Map());
  const values = new Map<string, Map<string, number>>();
  for (const r of runs) {
    for (const s of r.run.services)
      for (const m of s.metrics) {
        const key = `${s.name} › ${m.name}`;
        if (!values.has(key)) values.set(key, new Map());
        values.get(key)?.set(r.scenario, m.value);
      }
  }
  let checked = 0;
  for (const [metric, byScenario] of values) {
    if (followsSomeFigure(byScenario, served)) continue;
    for (const [a, valueA] of byScenario) {
      const figuresA = served.get(a) as ServedFigures;
      for (const { key, scale } of matchingFigures(valueA, figuresA).filter((f) => related(metric, f.key))) {
        for (const [b, valueB] of byScenario) {
          if (b === a) continue;
          const figureB = served.get(b)?.get(key);
          if (figureB === undefined || figureB === figuresA.get(key)) continue;
          checked += 1;
          if (valueB === valueA && !followsFigure(valueB, figureB, scale)) {
            findings.push({
              scenario: b,
              passed: false,
              message: `${metric} = ${valueB} as in ${a}, where it equals the served ${key} (${figuresA.get(key)}); ${b} served ${key} = ${figureB}`,
            });
          }
        }
      }
    }
  }
  if (findings.length === 0 && values.size > 0)
    findings.push({
      scenario: 'all',
      passed: true,
      message: `${values.size} metrics over ${runs.length} scenarios; ${checked} changes of a matched figure followed`,
    });
  // One failure per metric is enough evidence.
  const seen = new Set<string>();
  return findings.filter((f) => {
    const metric = f.message.split(' = ')[0] ?? f.message;
    if (f.passed || !seen.has(metric)) {
      seen.add(metric);
      return true;
    }
    return false;
  });
}

/**
 * Whether the metric equals one served figure (under one scale) in every scenario that served
 * it: then it follows that figure, whatever other figure it also equals somewhere.
 */
function followsSomeFigure(byScenario: Map<string, number>, served: Map<string, ServedFigures>): boolean {
  const [first] = byScenario;
  if (!first) return false;
  const [scenario, value] = first;
  for (const { key, scale } of matchingFigures(value, served.get(scenario) ?? new Map())) {
    let everywhere = true;
    for (const [b, valueB] of byScenario) {
      const figure = served.get(b)?.get(key);
      if (figure !== undefined && !followsFigure(valueB, figure, scale)) everywhere = false;
    }
    if (everywhere) return true;
  }
  return false;
}

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3),
  );
}

/**
 * Whether a served figure's key and a metric (service › name) share a word: a metric is tied to
 * the figures it is named after, so a count that merely happens to equal some other figure in one
 * scenario is not taken for a copy of it.
 */
function related(metric: string, key: string): boolean {
  const keyWords = words(key.split('/')[1] ?? '');
  return [...words(metric)].some((w) => keyWords.has(w));
}

/** The applicable PLUGIN clauses' reading for agent-based plug-ins (for the report's rule text). */
export function pluginClauseReading(id: string): string | undefined {
  return APPLICABLE_PLUGIN_CLAUSES.get(id);
}
