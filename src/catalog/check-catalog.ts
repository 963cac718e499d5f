import { type Catalog, catalogPrefixes, clausePrefix } from './catalog.ts';
import type { CitationScan } from './scan-citations.ts';
import type { FeatureScan, ScenarioTags } from './scan-feature-tags.ts';

export type CatalogProblemKind =
  | 'parse-error'
  | 'unknown-tag'
  | 'unspecified-tag'
  | 'not-testable-tag'
  | 'untagged-scenario'
  | 'catalog-drift'
  | 'unknown-goal-prefix'
  | 'goal-not-met'
  | 'uncited-clause'
  | 'abbreviated-citation';

export interface CatalogProblem {
  kind: CatalogProblemKind;
  /** One line, naming file:line where there is one. */
  message: string;
}

export interface PrefixCoverage {
  prefix: string;
  /** Testable clauses (check other than `not-testable`) that at least one scenario cites. */
  covered: number;
  testable: number;
  /** Testable clause ids no scenario cites, in catalog order. */
  uncovered: string[];
  /** Listed in features/coverage-goals.yaml: every testable clause must be covered. */
  goal: boolean;
  /**
   * Testable clause ids that no simulator source cites in full (absent when not checked); for
   * `plugin` clauses, that no certification source (src/certify) cites.
   */
  uncited?: string[];
}

export interface CatalogCheckInput {
  catalog: Catalog;
  scan: FeatureScan;
  /** Prefixes that must be fully covered. */
  coverageGoals: readonly string[];
  /** Text of features/clauses.yaml and of ../shared/specs/clauses.yaml (`null` when absent). */
  catalogText?: string;
  sharedCatalogText?: string | null;
  /** Clause citations in the product's sources; absent: not checked. */
  citations?: CitationScan;
}

export interface CatalogCheckResult {
  problems: CatalogProblem[];
  coverage: PrefixCoverage[];
  scenarioCount: number;
}

/**
 * The traceability check of `npm run test:catalog`: every scenario cites at least one testable
 * clause, every `@PREFIX-…` tag with a catalog prefix names a catalog clause, no scenario asserts
 * an `unspecified` place or a `not-testable` clause, the catalog equals the spec repository's copy,
 * prefixes named as coverage goals are fully proved, every testable clause is cited in full by
 * the simulator code that implements it (a `plugin` clause by the certification code that
 * judges it), and no comment abbreviates clause ids (a wildcard after
 * a prefix, or a list of bare suffixes) so that a grep for the full id misses one. Pure: all
 * inputs are data.
 */
export function checkCatalog(input: CatalogCheckInput): CatalogCheckResult {
  const { catalog, scan } = input;
  const problems: CatalogProblem[] = scan.errors.map((error) => ({
    kind: 'parse-error' as const,
    message: `${error.uri}: ${error.message}`,
  }));
  const clauses = new Map(catalog.clauses.map((clause) => [clause.id, clause]));
  const unspecified = new Set(catalog.unspecified.map((entry) => entry.id));
  const prefixes = catalogPrefixes(catalog);
  const knownPrefixes = new Set(prefixes);
  const cited = new Set<string>();

  for (const scenario of scan.scenarios) {
    let citesTestable = false;
    for (const tag of scenario.tags) {
      const id = tag.replace(/^@/, '');
      if (!id.includes('-') || !knownPrefixes.has(clausePrefix(id))) continue;
      const clause = clauses.get(id);
      if (clause?.check === 'not-testable') {
        problems.push(
          problem('not-testable-tag', scenario, `${tag} is a not-testable clause and must not be asserted`),
        );
      } else if (clause) {
        citesTestable = true;
        cited.add(id);
      } else if (unspecified.has(id)) {
        problems.push(
          problem('unspecified-tag', scenario, `${tag} names an unspecified place and must not be asserted`),
        );
      } else {
        problems.push(problem('unknown-tag', scenario, `${tag} is not a catalog clause id`));
      }
    }
    if (!citesTestable) {
      problems.push(
        problem('untagged-scenario', scenario, 'cites no testable catalog clause (@CLAUSE-ID tag)'),
      );
    }
  }

  if (input.sharedCatalogText != null && input.catalogText !== undefined) {
    if (input.sharedCatalogText !== input.catalogText) {
      problems.push({
        kind: 'catalog-drift',
        message:
          'features/clauses.yaml differs from ../shared/specs/clauses.yaml; copy the shared catalog over',
      });
    }
  }

  const goals = new Set(input.coverageGoals);
  for (const goal of goals) {
    if (!knownPrefixes.has(goal)) {
      problems.push({
        kind: 'unknown-goal-prefix',
        message: `coverage goal ${goal} is not a catalog prefix`,
      });
    }
  }

  const coverage = prefixes.map((prefix): PrefixCoverage => {
    const testable = catalog.clauses.filter(
      (c) => clausePrefix(c.id) === prefix && c.check !== 'not-testable',
    );
    const uncovered = testable.filter((c) => !cited.has(c.id)).map((c) => c.id);
    const entry: PrefixCoverage = {
      prefix,
      covered: testable.length - uncovered.length,
      testable: testable.length,
      uncovered,
      goal: goals.has(prefix),
    };
    const citations = input.citations;
    if (citations)
      entry.uncited = testable
        .filter((c) => !(c.check === 'plugin' ? citations.citedByJudges : citations.cited).has(c.id))
        .map((c) => c.id);
    return entry;
  });
  for (const entry of coverage) {
    if (entry.uncited && entry.uncited.length > 0) {
      problems.push({
        kind: 'uncited-clause',
        message: `${entry.prefix}: no ${entry.prefix === 'PLUGIN' ? 'certification (src/certify)' : 'simulator'} source cites ${entry.uncited.join(', ')}`,
      });
    }
  }
  for (const abbreviation of input.citations?.abbreviations ?? []) {
    problems.push({
      kind: 'abbreviated-citation',
      message: `${abbreviation.where}: "${abbreviation.text}" abbreviates clause ids; cite each id in full`,
    });
  }
  for (const entry of coverage) {
    if (entry.goal && entry.uncovered.length > 0) {
      problems.push({
        kind: 'goal-not-met',
        message: `${entry.prefix} must be fully covered; no scenario proves ${entry.uncovered.join(', ')}`,
      });
    }
  }
  return { problems, coverage, scenarioCount: scan.scenarios.length };
}

function problem(kind: CatalogProblemKind, scenario: ScenarioTags, text: string): CatalogProblem {
  return { kind, message: `${scenario.uri}:${scenario.line} "${scenario.name}": ${text}` };
}
