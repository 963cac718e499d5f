import { type Catalog, type Clause as CatalogClause, clausePrefix } from '../catalog/catalog.ts';
import { TOOL_VERSION } from '../core/tool-version.ts';
import { catalogIdentity } from './catalog-identity.ts';
import { clauseVerdict } from './clause-verdict.ts';
import { compactEvidence, type EvidenceForm, EvidenceHeads, evidenceHeadsOf } from './compact-evidence.ts';
import { compareBaseline } from './compare-baseline.ts';
import type { ExpectedFailures } from './expected-failures.ts';
import {
  type CertificationSummary,
  type ClauseResult,
  type CompatibilityReport,
  emptyVerdictCounts,
  type InterfaceResult,
  type ReportCommand,
  type RunMetadata,
  type SandboxSummary,
  type ScenarioCounts,
  type ScenarioResult,
  type Stability,
  type UntracedScenario,
  type Verdict,
  type VerdictCounts,
} from './model.ts';
import type { RunIdentity } from './run-identity.ts';
import type { TaggedScenarioResult } from './scenario-results.ts';

/** Which run a report is of: what the command knows of it. The builder fills the rest. */
export interface ReportRun {
  command: ReportCommand;
  /** `embedded`, the target file's `name`, the plug-in or the endpoint. */
  target: string;
  targetFile: string | null;
  startedAt: Date | string;
  finishedAt: Date | string;
  /** The version of Cucumber that ran the scenarios; absent (null) for a command that runs none. */
  cucumberVersion?: string | null;
  tagExpression?: string | null;
  webUrl?: string | null;
  rerun?: RunMetadata['rerun'];
  run?: RunIdentity;
  /** Default: this tool's version. `report merge` keeps its shards' (they must agree). */
  toolVersion?: string;
}

/** Verdicts to be judged from scenario results (`verify`, `fuzz`, `resolver-check`). */
export interface ScenarioResults {
  /** One result per scenario that ran, with the clause tags it carries (`@MON-…`). */
  scenarios: readonly TaggedScenarioResult[];
  /** The whole catalog: every clause gets a verdict from the scenarios that cite it. */
  catalog: Catalog;
  /**
   * Clause ids that scenarios in the feature files cite, whether or not they ran: a clause in it
   * with no scenario in this run is `not-run` (left out by a tag filter), not `not-covered`.
   */
  provedInFeatures?: ReadonlySet<string>;
  /**
   * The scenarios of each round of `verify --repeat N` (N > 1); `scenarios` then holds them all.
   * Each clause gets its verdict per round and a stability: stable pass, stable fail or flaky.
   */
  repeatedRuns?: ReadonlyArray<readonly TaggedScenarioResult[]>;
  /** How passing scenarios keep their evidence (default compact; src/report/compact-evidence.ts). */
  evidence?: EvidenceForm;
}

/**
 * Verdicts a command judged itself (`certify-plugin` with or without `--mkp` judges runs of a
 * plug-in, `report merge` joins shards): each clause with its verdict and scenarios, and the
 * scenarios counted as the command ran them.
 */
export interface JudgedClauses {
  judged: readonly ClauseResult[];
  scenarioCounts: ScenarioCounts;
  untracedScenarios?: readonly UntracedScenario[];
}

export interface BuildReportInput {
  run: ReportRun;
  /** The catalog that judged the run: its format `version` and content `fingerprint` name it. */
  catalog: Pick<Catalog, 'version' | 'fingerprint'>;
  results: ScenarioResults | JudgedClauses;
  /** The target's expected failures; absent where none apply (only `verify` has a baseline). */
  expectedFailures?: ExpectedFailures;
  /** Coverage gates of the run (`verify --require`, `--fail-under`, the interfaces the target names). */
  gates?: CoverageGates;
  /** What else fails the run, in the command's words (a run the harness could not set up, …). */
  moreReasons?: readonly string[];
  certification?: CertificationSummary;
  sandbox?: SandboxSummary;
  /** The heads the compact evidence of the results already refers to (`report merge`: its shards'). */
  evidenceHeads?: Readonly<Record<string, string>>;
}

/**
 * Coverage as a gate. Verified = `pass` or `fail`: a verdict the target earned.
 * - `namedInterfaces`: an interface the target names whose selected clauses (those the run did
 *   not leave out by a tag filter) include no verified one fails the run.
 * - `require`: every testable clause whose id starts with one of these prefixes must be verified.
 * - `failUnder`: the share (percent) of passing clauses among the testable clauses of the named
 *   interfaces must be at least this.
 */
export interface CoverageGates {
  namedInterfaces?: readonly string[];
  require?: readonly string[];
  failUnder?: number;
}

/**
 * The one report builder (issue 30 §4): every command (`verify`, `certify-plugin` with and
 * without `--mkp`, `fuzz`, `resolver-check`, `report merge`) gives it its results, and it fills
 * the metadata (tool version, catalog version and fingerprint, times, nulls where nothing
 * applies), the verdict counts and scores per interface, the baseline comparison and the outcome
 * the same way for all of them. Scenario results are judged per clause here ({@link
 * clauseVerdict}); judged clauses are taken as they are. Pure: the same results give the same report.
 */
export function buildReport(input: BuildReportInput): CompatibilityReport {
  const { results } = input;
  // Each distinct head of the passes' compact evidence, once (issue 29, item 17).
  const heads = new EvidenceHeads(input.evidenceHeads);
  const { clauses, scenarioCounts, untracedScenarios, flaky } =
    'judged' in results
      ? {
          clauses: results.judged.map((clause) => ({ ...clause })),
          scenarioCounts: { ...results.scenarioCounts },
          untracedScenarios: [...(results.untracedScenarios ?? [])],
          flaky: [],
        }
      : judgeScenarios(results, heads);

  const expectedFailures = input.expectedFailures;
  const comparison = compareBaseline(clauses, expectedFailures?.entries ?? []);
  for (const clause of clauses) {
    const baseline = comparison.byClause.get(clause.id);
    if (baseline) clause.baseline = baseline;
    else delete clause.baseline;
  }

  const interfaces: InterfaceResult[] = [];
  for (const prefix of new Set(clauses.map((clause) => clause.interface))) {
    const own = clauses.filter((clause) => clause.interface === prefix);
    const counts = verdictCounts(own);
    interfaces.push({
      id: prefix,
      score: { passed: counts.pass, testable: own.length - counts['not-testable'] },
      counts,
      clauses: own,
    });
  }

  const reasons: string[] = [];
  if (scenarioCounts.total === 0) reasons.push('no scenario ran');
  const failures = comparison.unexpectedFailures;
  if (failures.length > 0) {
    reasons.push(
      expectedFailures
        ? `${failures.length} clause(s) failed that ${expectedFailures.path} does not list as expected failures: ${failures.join(', ')}`
        : `${failures.length} clause(s) failed: ${failures.join(', ')}`,
    );
  }
  if (comparison.unexpectedPasses.length > 0) {
    reasons.push(
      `${comparison.unexpectedPasses.length} clause(s) listed as expected failures now pass; remove them from ${expectedFailures?.path}: ${comparison.unexpectedPasses.join(', ')}`,
    );
  }
  const failedUntraced = untracedScenarios.filter((s) => s.status !== 'passed' && s.status !== 'skipped');
  if (failedUntraced.length > 0) {
    reasons.push(
      `${failedUntraced.length} scenario(s) citing no catalog clause did not pass: ${failedUntraced.map((s) => `${s.uri}:${s.line}`).join(', ')}`,
    );
  }
  if (flaky.length > 0) {
    const rounds = 'repeatedRuns' in results ? (results.repeatedRuns?.length ?? 0) : 0;
    reasons.push(
      `${flaky.length} clause(s) flaky across ${rounds} runs (verdicts differ between runs): ${flaky.join(', ')}`,
    );
  }
  reasons.push(...coverageReasons(interfaces, clauses, input.gates ?? {}));
  const expired = expectedFailures?.expired ?? [];
  const expiredFailing = expired.filter((entry) => failures.includes(entry.clause));
  if (expiredFailing.length > 0) {
    reasons.push(
      `baseline entries past their "until" day no longer excuse: ${expiredFailing.map((e) => `${e.clause}${e.until ? ` (until ${e.until})` : ''}`).join(', ')}`,
    );
  }
  reasons.push(...(input.moreReasons ?? []));

  const { run } = input;
  return {
    reportVersion: 1,
    ...(input.certification ? { certification: input.certification } : {}),
    metadata: {
      command: run.command,
      target: run.target,
      targetFile: run.targetFile,
      startedAt: isoTime(run.startedAt),
      finishedAt: isoTime(run.finishedAt),
      toolVersion: run.toolVersion ?? TOOL_VERSION,
      ...catalogIdentity(input.catalog),
      cucumberVersion: run.cucumberVersion ?? null,
      tagExpression: run.tagExpression ?? null,
      ...(run.webUrl === undefined ? {} : { webUrl: run.webUrl }),
      ...(run.rerun ? { rerun: run.rerun } : {}),
      ...(run.run ? { run: run.run } : {}),
    },
    scenarios: scenarioCounts,
    clauses: verdictCounts(clauses),
    interfaces,
    untracedScenarios,
    baseline: {
      file: expectedFailures?.path ?? NO_BASELINE,
      present: (expectedFailures?.file ?? null) !== null,
      expectedFailures: comparison.expectedFailures,
      unexpectedFailures: failures,
      unexpectedPasses: comparison.unexpectedPasses,
      listedNotRun: comparison.listedNotRun,
      expired: expired.map((entry) => entry.clause),
    },
    outcome: { passed: reasons.length === 0, reasons },
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...evidenceHeadsOf(
      heads,
      clauses.flatMap((clause) => clause.scenarios),
    ),
  };
}

/** `baseline.file` of a report no expected-failures file applies to (every command but `verify`). */
export const NO_BASELINE = '(no expected failures)';

function isoTime(time: Date | string): string {
  return typeof time === 'string' ? time : time.toISOString();
}

function verdictCounts(clauses: readonly ClauseResult[]): VerdictCounts {
  const counts = emptyVerdictCounts();
  for (const clause of clauses) counts[clause.verdict] += 1;
  return counts;
}

/** Every catalog clause's verdict from the scenarios that cite it, and the scenarios counted. */
function judgeScenarios(
  input: ScenarioResults,
  heads: EvidenceHeads,
): {
  clauses: ClauseResult[];
  scenarioCounts: ScenarioCounts;
  untracedScenarios: UntracedScenario[];
  flaky: string[];
} {
  const { catalog, scenarios } = input;
  const byClause = new Map<string, ScenarioResult[]>(catalog.clauses.map((clause) => [clause.id, []]));
  const untraced: UntracedScenario[] = [];
  const scenarioCounts: ScenarioCounts = { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const { tags, result: asRun } of scenarios) {
    // A pass keeps its evidence compact, everything else in full (issue 29, item 17).
    const result =
      asRun.status === 'passed' && input.evidence !== 'full'
        ? { ...asRun, evidence: compactEvidence(asRun.evidence, heads) }
        : asRun;
    scenarioCounts.total += 1;
    if (result.status === 'passed') scenarioCounts.passed += 1;
    else if (result.status === 'failed') scenarioCounts.failed += 1;
    else if (result.status === 'skipped') scenarioCounts.skipped += 1;
    else scenarioCounts.other += 1;
    let traced = false;
    for (const tag of new Set(tags)) {
      const list = byClause.get(tag.replace(/^@/, ''));
      if (!list) continue;
      list.push(result);
      traced = true;
    }
    if (!traced) {
      untraced.push({ name: result.name, uri: result.uri, line: result.line, status: result.status });
    }
  }

  const clauses = catalog.clauses.map((clause): ClauseResult => {
    const cited = byClause.get(clause.id) ?? [];
    const judged = clauseVerdict(clause.check, cited, input.provedInFeatures?.has(clause.id) ?? false);
    const result: ClauseResult = { ...catalogFields(clause), verdict: judged.verdict, scenarios: cited };
    if (judged.verdict === 'not-verifiable') result.reason = judged.reason;
    return result;
  });

  const flaky: string[] = [];
  if (input.repeatedRuns && input.repeatedRuns.length > 1) {
    const rounds = input.repeatedRuns.map((round) => {
      const verdicts = new Map<string, Verdict>();
      for (const clause of judgeScenarios(
        { ...input, scenarios: round, repeatedRuns: [] },
        new EvidenceHeads(),
      ).clauses)
        verdicts.set(clause.id, clause.verdict);
      return verdicts;
    });
    for (const clause of clauses) {
      const verdicts = rounds.map((round) => round.get(clause.id) ?? clause.verdict);
      const distinct = new Set(verdicts);
      if (distinct.size === 1 && (verdicts[0] === 'not-run' || verdicts[0] === 'not-covered')) continue;
      const stability: Stability =
        distinct.size > 1
          ? 'flaky'
          : verdicts[0] === 'pass'
            ? 'stable-pass'
            : verdicts[0] === 'fail'
              ? 'stable-fail'
              : 'stable-other';
      clause.repeat = { verdicts, stability };
      if (stability === 'flaky') flaky.push(clause.id);
    }
  }
  return { clauses, scenarioCounts, untracedScenarios: untraced, flaky };
}

const VERIFIED = new Set(['pass', 'fail']);
const NOT_SELECTED = new Set(['not-run', 'not-covered', 'not-testable']);

/** The reasons a run misses its coverage gates (see {@link CoverageGates}). */
function coverageReasons(
  interfaces: readonly InterfaceResult[],
  clauses: readonly ClauseResult[],
  gates: CoverageGates,
): string[] {
  const reasons: string[] = [];
  const named = new Set(gates.namedInterfaces ?? []);
  for (const face of interfaces) {
    if (!named.has(face.id)) continue;
    const selected = face.clauses.filter((c) => !NOT_SELECTED.has(c.verdict));
    if (selected.length === 0 || selected.some((c) => VERIFIED.has(c.verdict))) continue;
    const why = [...new Set(selected.map((c) => c.reason).filter((r): r is string => r !== undefined))];
    reasons.push(
      `interface ${face.id}, which the target names, has zero verified clauses (${selected.length} not verifiable${why.length > 0 ? `: ${why.slice(0, 2).join('; ')}${why.length > 2 ? '; …' : ''}` : ''})`,
    );
  }
  for (const prefix of gates.require ?? []) {
    const own = clauses.filter((c) => matchesPrefix(c.id, prefix) && c.verdict !== 'not-testable');
    const unverified = own.filter((c) => !VERIFIED.has(c.verdict));
    if (unverified.length > 0) {
      const shown = unverified.slice(0, 8).map((c) => `${c.id} (${c.verdict})`);
      reasons.push(
        `--require ${prefix}: ${unverified.length} of ${own.length} testable clauses not verified: ${shown.join(', ')}${unverified.length > 8 ? ', …' : ''}`,
      );
    }
  }
  if (gates.failUnder !== undefined) {
    const scope = clauses.filter((c) => named.has(c.interface) && c.verdict !== 'not-testable');
    const passed = scope.filter((c) => c.verdict === 'pass').length;
    const percent = scope.length === 0 ? 0 : (passed / scope.length) * 100;
    if (percent < gates.failUnder) {
      reasons.push(
        `coverage ${percent.toFixed(1)} % (${passed} of ${scope.length} testable clauses of ${[...named].join(', ')} pass) is under --fail-under ${gates.failUnder} %`,
      );
    }
  }
  return reasons;
}

/** `MAINT` matches `MAINT-AUTH-…`; `MAINT-AUTH` matches `MAINT-AUTH-…` and `MAINT-AUTH` itself. */
export function matchesPrefix(id: string, prefix: string): boolean {
  return id === prefix || id.startsWith(prefix.endsWith('-') ? prefix : `${prefix}-`);
}

/** What a clause result carries of its catalog clause: id, interface, spec, section, rule, check, level. */
export function catalogFields(
  clause: CatalogClause,
): Pick<ClauseResult, 'id' | 'interface' | 'spec' | 'section' | 'rule' | 'check' | 'property' | 'level'> {
  return {
    id: clause.id,
    interface: clausePrefix(clause.id),
    spec: clause.spec,
    section: clause.section,
    rule: clause.rule,
    check: clause.check,
    property: clause.property,
    ...(clause.level ? { level: clause.level } : {}),
  };
}
