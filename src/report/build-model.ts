import type { Envelope } from '@cucumber/messages';
import { type Catalog, catalogPrefixes, clausePrefix } from '../catalog/catalog.ts';
import { clauseVerdict } from './clause-verdict.ts';
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
  type UntracedScenario,
} from './model.ts';
import { collectScenarioResults } from './scenario-results.ts';

export interface BuildModelInput {
  envelopes: readonly Envelope[];
  catalog: Catalog;
  /** Everything but `cucumberVersion`, which is read from the `meta` message. */
  metadata: Omit<RunMetadata, 'cucumberVersion'>;
  expectedFailures: ExpectedFailures;
  /**
   * Clause ids that scenarios in the feature files cite, whether or not they ran: a clause in it
   * with no scenario in this run is `not-run` (left out by a tag filter), not `not-covered`.
   */
  provedInFeatures?: ReadonlySet<string>;
}

/**
 * Builds the compatibility report from Cucumber's messages and the catalog: a verdict per clause
 * (see {@link clauseVerdict}), a score per interface, the baseline comparison and the run outcome.
 * Pure: the same envelopes give the same report.
 */
export function buildModel(input: BuildModelInput): CompatibilityReport {
  const { catalog } = input;
  const scenarios = collectScenarioResults(input.envelopes);
  const byClause = new Map<string, ScenarioResult[]>(catalog.clauses.map((clause) => [clause.id, []]));
  const untracedScenarios: UntracedScenario[] = [];
  const scenarioCounts: ScenarioCounts = { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const { tags, result } of scenarios) {
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
      id: clause.id,
      interface: clausePrefix(clause.id),
      spec: clause.spec,
      section: clause.section,
      rule: clause.rule,
      check: clause.check,
      property: clause.property,
      verdict: judged.verdict,
      scenarios: cited,
    };
    if (judged.verdict === 'not-verifiable') result.reason = judged.reason;
    return result;
  });

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

  return {
    reportVersion: 1,
    metadata: { ...input.metadata, cucumberVersion: cucumberVersion(input.envelopes) },
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
    },
    outcome: { passed: reasons.length === 0, reasons },
  };
}

function cucumberVersion(envelopes: readonly Envelope[]): string | null {
  for (const envelope of envelopes) {
    if (envelope.meta) return envelope.meta.implementation.version ?? null;
  }
  return null;
}
