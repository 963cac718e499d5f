import type { Envelope } from '@cucumber/messages';
import {
  type Catalog,
  type Clause as CatalogClause,
  catalogPrefixes,
  clausePrefix,
} from '../catalog/catalog.ts';
import { clauseVerdict } from './clause-verdict.ts';
import { compactEvidence, type EvidenceForm, EvidenceHeads, evidenceHeadsOf } from './compact-evidence.ts';
import { compareBaseline } from './compare-baseline.ts';
import type { ExpectedFailures } from './expected-failures.ts';
import {
  type ClauseResult,
  type CompatibilityReport,
  emptyVerdictCounts,
  type InterfaceResult,
  type RunMetadata,
  type ScenarioCounts,
  type ScenarioResult,
  type Stability,
  type UntracedScenario,
  type Verdict,
} from './model.ts';
import { collectScenarioResults, type TaggedScenarioResult } from './scenario-results.ts';

export interface BuildReportInput {
  /** One result per scenario that ran, with the clause tags it carries (`@MON-…`). */
  scenarios: readonly TaggedScenarioResult[];
  catalog: Catalog;
  metadata: RunMetadata;
  expectedFailures: ExpectedFailures;
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
  /** Coverage gates of the run (`verify --require`, `--fail-under`, the interfaces the target names). */
  gates?: CoverageGates;
  /** How passing scenarios keep their evidence (default compact; src/report/compact-evidence.ts). */
  evidence?: EvidenceForm;
  /** The heads compact evidence of `scenarios` already refers to (reports read back, merged). */
  evidenceHeads?: Readonly<Record<string, string>>;
}

/** `verify`'s input: Cucumber's message streams instead of scenario results. */
export interface BuildModelInput extends Omit<BuildReportInput, 'scenarios' | 'repeatedRuns' | 'metadata'> {
  envelopes: readonly Envelope[];
  /** Everything but `cucumberVersion`, which is read from the `meta` message; `command` is `verify`. */
  metadata: Omit<RunMetadata, 'cucumberVersion' | 'command'>;
  /** The message streams of each round of `verify --repeat N` (N > 1); `envelopes` then holds them all. */
  repeatedRuns?: ReadonlyArray<readonly Envelope[]>;
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

/** The compatibility report of a `verify` run, from Cucumber's messages (see {@link buildReport}). */
export function buildModel(input: BuildModelInput): CompatibilityReport {
  const { envelopes, repeatedRuns, metadata, ...rest } = input;
  return buildReport({
    ...rest,
    scenarios: collectScenarioResults(envelopes),
    metadata: { ...metadata, command: 'verify', cucumberVersion: cucumberVersion(envelopes) },
    ...(repeatedRuns ? { repeatedRuns: repeatedRuns.map((round) => collectScenarioResults(round)) } : {}),
  });
}

/**
 * Builds the compatibility report of any command (`verify`, `certify-plugin`, `fuzz`,
 * `resolver-check`) from its scenario results and the catalog: a verdict per clause (see
 * {@link clauseVerdict}), a score per interface, the baseline comparison and the run outcome.
 * Pure: the same scenarios give the same report.
 */
export function buildReport(input: BuildReportInput): CompatibilityReport {
  const { catalog, scenarios } = input;
  const byClause = new Map<string, ScenarioResult[]>(catalog.clauses.map((clause) => [clause.id, []]));
  const untracedScenarios: UntracedScenario[] = [];
  const scenarioCounts: ScenarioCounts = { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 };
  const heads = new EvidenceHeads(input.evidenceHeads);
  const results: ScenarioResult[] = [];
  for (const { tags, result: asRun } of scenarios) {
    // A pass keeps its evidence compact, everything else in full (issue 29, item 17).
    const result =
      asRun.status === 'passed' && input.evidence !== 'full'
        ? { ...asRun, evidence: compactEvidence(asRun.evidence, heads) }
        : asRun;
    results.push(result);
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
      untracedScenarios.push({
        name: result.name,
        uri: result.uri,
        line: result.line,
        status: result.status,
      });
    }
  }

  const clauses = catalog.clauses.map((clause): ClauseResult => {
    const cited = byClause.get(clause.id) ?? [];
    const judged = clauseVerdict(clause.check, cited, input.provedInFeatures?.has(clause.id) ?? false);
    const result: ClauseResult = {
      ...catalogFields(clause),
      verdict: judged.verdict,
      scenarios: cited,
    };
    if (judged.verdict === 'not-verifiable') result.reason = judged.reason;
    return result;
  });

  const flaky: string[] = [];
  if (input.repeatedRuns && input.repeatedRuns.length > 1) {
    const rounds = input.repeatedRuns.map((round) => {
      const { repeatedRuns: _, gates: __, ...single } = input;
      const verdicts = new Map<string, Verdict>();
      for (const face of buildReport({ ...single, scenarios: round }).interfaces) {
        for (const clause of face.clauses) verdicts.set(clause.id, clause.verdict);
      }
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

  const comparison = compareBaseline(clauses, input.expectedFailures.entries);
  for (const clause of clauses) {
    const baseline = comparison.byClause.get(clause.id);
    if (baseline) clause.baseline = baseline;
  }

  const interfaces: InterfaceResult[] = [];
  for (const prefix of catalogPrefixes(catalog)) {
    const own = clauses.filter((clause) => clause.interface === prefix);
    if (own.length === 0) continue;
    const counts = emptyVerdictCounts();
    for (const clause of own) counts[clause.verdict] += 1;
    interfaces.push({
      id: prefix,
      score: { passed: counts.pass, testable: own.length - counts['not-testable'] },
      counts,
      clauses: own,
    });
  }
  const clauseCounts = emptyVerdictCounts();
  for (const clause of clauses) clauseCounts[clause.verdict] += 1;

  const baselineName = input.expectedFailures.path;
  const reasons: string[] = [];
  if (scenarioCounts.total === 0) reasons.push('no scenario ran');
  if (comparison.unexpectedFailures.length > 0) {
    reasons.push(
      `${comparison.unexpectedFailures.length} clause(s) failed that ${baselineName} does not list as expected failures: ${comparison.unexpectedFailures.join(', ')}`,
    );
  }
  if (comparison.unexpectedPasses.length > 0) {
    reasons.push(
      `${comparison.unexpectedPasses.length} clause(s) listed as expected failures now pass; remove them from ${baselineName}: ${comparison.unexpectedPasses.join(', ')}`,
    );
  }
  const failedUntraced = untracedScenarios.filter((s) => s.status !== 'passed' && s.status !== 'skipped');
  if (failedUntraced.length > 0) {
    reasons.push(
      `${failedUntraced.length} scenario(s) citing no catalog clause did not pass: ${failedUntraced.map((s) => `${s.uri}:${s.line}`).join(', ')}`,
    );
  }

  if (flaky.length > 0) {
    reasons.push(
      `${flaky.length} clause(s) flaky across ${input.repeatedRuns?.length ?? 0} runs (verdicts differ between runs): ${flaky.join(', ')}`,
    );
  }
  reasons.push(...coverageReasons(interfaces, clauses, input.gates ?? {}));
  const expired = input.expectedFailures.expired ?? [];
  const expiredFailing = expired.filter((entry) => comparison.unexpectedFailures.includes(entry.clause));
  if (expiredFailing.length > 0) {
    reasons.push(
      `baseline entries past their "until" day no longer excuse: ${expiredFailing.map((e) => `${e.clause} (until ${e.until})`).join(', ')}`,
    );
  }

  return {
    reportVersion: 1,
    metadata: input.metadata,
    scenarios: scenarioCounts,
    clauses: clauseCounts,
    interfaces,
    untracedScenarios,
    baseline: {
      file: input.expectedFailures.path,
      present: input.expectedFailures.file !== null,
      expectedFailures: comparison.expectedFailures,
      unexpectedFailures: comparison.unexpectedFailures,
      unexpectedPasses: comparison.unexpectedPasses,
      listedNotRun: comparison.listedNotRun,
      expired: expired.map((entry) => entry.clause),
    },
    outcome: { passed: reasons.length === 0, reasons },
    ...evidenceHeadsOf(heads, results),
  };
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

function cucumberVersion(envelopes: readonly Envelope[]): string | null {
  for (const envelope of envelopes) {
    if (envelope.meta) return envelope.meta.implementation.version ?? null;
  }
  return null;
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
