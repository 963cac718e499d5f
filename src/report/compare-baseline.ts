import type { ExpectedFailure } from './expected-failures.ts';
import type { BaselineStatus, Verdict } from './model.ts';

export interface BaselineComparison {
  /** Listed and still failing: reported, does not fail the run. */
  expectedFailures: string[];
  /** Failing but not listed: fails the run. */
  unexpectedFailures: string[];
  /** Listed but passing now: fails the run until the entry is removed. */
  unexpectedPasses: string[];
  /** Listed, but this run neither passed nor failed the clause (filtered out, not verifiable, …). */
  listedNotRun: string[];
  /** Per concerned clause id: its baseline status and the listed reason. */
  byClause: Map<string, { status: BaselineStatus; reason?: string }>;
}

/**
 * "Known gaps can only shrink": compares clause verdicts with a target's expected failures.
 * Ids are returned in the order of `verdicts`. Pure.
 */
export function compareBaseline(
  verdicts: ReadonlyArray<{ id: string; verdict: Verdict }>,
  expected: readonly ExpectedFailure[],
): BaselineComparison {
  const listed = new Map(expected.map((entry) => [entry.clause, entry.reason]));
  const result: BaselineComparison = {
    expectedFailures: [],
    unexpectedFailures: [],
    unexpectedPasses: [],
    listedNotRun: [],
    byClause: new Map(),
  };
  const judged = new Set<string>();
  for (const { id, verdict } of verdicts) {
    judged.add(id);
    const reason = listed.get(id);
    let status: BaselineStatus | undefined;
    if (verdict === 'fail') status = reason === undefined ? 'unexpected-failure' : 'expected-failure';
    else if (reason === undefined) continue;
    else status = verdict === 'pass' ? 'unexpected-pass' : 'listed-not-run';
    bucket(result, status).push(id);
    result.byClause.set(id, reason === undefined ? { status } : { status, reason });
  }
  for (const [id, reason] of listed) {
    if (judged.has(id)) continue;
    result.listedNotRun.push(id);
    result.byClause.set(id, { status: 'listed-not-run', reason });
  }
  return result;
}

function bucket(result: BaselineComparison, status: BaselineStatus): string[] {
  switch (status) {
    case 'expected-failure':
      return result.expectedFailures;
    case 'unexpected-failure':
      return result.unexpectedFailures;
    case 'unexpected-pass':
      return result.unexpectedPasses;
    case 'listed-not-run':
      return result.listedNotRun;
  }
}
