import type { CheckKind } from '../catalog/catalog.ts';
import type { ScenarioResult, Verdict } from './model.ts';

export type ClauseVerdict =
  | { verdict: Exclude<Verdict, 'not-verifiable'> }
  | { verdict: 'not-verifiable'; reason: string };

/** A scenario skipped without attaching a reason still cannot count as proof. */
export const SKIPPED_WITHOUT_REASON = 'skipped without a not-verifiable reason';

/**
 * The verdict of one clause from the scenarios that cite it: any scenario failed (or ended
 * pending, undefined, ambiguous or unknown, which are harness defects that must not look like
 * success) → `fail`; else any passed → `pass`; else all were skipped → `not-verifiable` with the
 * attached reasons; no scenario ran → `not-run` when the features hold scenarios for it (a tag
 * filter left them out), else `not-covered`. `not-testable` clauses stay `not-testable`.
 */
export function clauseVerdict(
  check: CheckKind,
  scenarios: readonly ScenarioResult[],
  provedInFeatures = false,
): ClauseVerdict {
  if (check === 'not-testable') return { verdict: 'not-testable' };
  if (scenarios.length === 0) return { verdict: provedInFeatures ? 'not-run' : 'not-covered' };
  if (scenarios.some((s) => s.status !== 'passed' && s.status !== 'skipped')) return { verdict: 'fail' };
  if (scenarios.some((s) => s.status === 'passed')) return { verdict: 'pass' };
  const reasons = [...new Set(scenarios.map((s) => s.notVerifiableReason ?? SKIPPED_WITHOUT_REASON))];
  return { verdict: 'not-verifiable', reason: reasons.join('; ') };
}
