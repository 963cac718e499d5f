import { closestKeys } from '../core/strict-schema.ts';
import type { CertificationLevel, Coverage, Judged } from './certify-types.ts';
import { describeMeasure, type Expectations } from './expectations.ts';
import type { LabelTracking } from './figure-tracking.ts';

/**
 * What a certification proved (issue 28 §3; plugin-interface.md, "Declared meaning": "A
 * certificate says which of the two it is"): its level, its coverage, and what it did not certify,
 * in plain sentences for the terminal summary, JSON, HTML and JUnit.
 *
 * - `form`: no expectations file (or one with neither `watches`, expected states nor `measures`):
 *   only the rules that need no declaration were judged;
 * - `state`: watched services (or expected states), so the state was judged against the PBX;
 * - `values`: every perfdata label printed in some run is declared in `measures`.
 */
export function levelOf(expectations: Expectations | null, labels: readonly string[]): CertificationLevel {
  if (!expectations) return 'form';
  if (labels.length > 0 && labels.every((l) => expectations.measures.has(l))) return 'values';
  if (expectations.watches.length > 0 || expectations.scenarios.size > 0) return 'state';
  return 'form';
}

/** Every perfdata label printed in a scenario or generated run, sorted. */
export function printedLabels(all: readonly Judged[]): string[] {
  const labels = new Set<string>();
  for (const j of all) for (const p of j.judgement?.parsed.perfdata ?? []) labels.add(p.label);
  return [...labels].sort();
}

export function coverageOf(
  expectations: Expectations | null,
  labels: readonly string[],
  tracking: readonly LabelTracking[],
  all: readonly Judged[],
): Coverage {
  const declared = labels.filter((l) => expectations?.measures.has(l));
  const follows = new Set(tracking.filter((t) => t.kind === 'follows').map((t) => t.label));
  const tracked = labels.filter((l) => !expectations?.measures.has(l) && follows.has(l));
  const watched = new Set(all.flatMap((j) => j.served?.watchedServices ?? []));
  return {
    declared: declared.length,
    tracked: tracked.length,
    notTraced: labels.length - declared.length - tracked.length,
    watched: watched.size,
    labels: labels.length,
  };
}

/** What was not certified, one plain sentence each. */
export function notCertified(
  expectations: Expectations | null,
  labels: readonly string[],
  tracking: readonly LabelTracking[],
): string[] {
  const out: string[] = [];
  if (!expectations?.watches.length && !expectations?.scenarios.size)
    out.push(
      'state: no watched services (`watches`) and no expected states: the state was judged only where it needs no declaration',
    );
  const undeclared = labels.filter((l) => !expectations?.measures.has(l));
  if (labels.length === 0) out.push('values: the plug-in printed no perfdata label');
  else if (undeclared.length > 0) {
    const follows = new Set(tracking.filter((t) => t.kind === 'follows').map((t) => t.label));
    const untraced = undeclared.filter((l) => !follows.has(l));
    out.push(
      `values: ${undeclared.length} of ${labels.length} labels not declared (${undeclared.join(', ')})${
        untraced.length > 0 ? `; not traced either: ${untraced.join(', ')}` : ''
      }`,
    );
  }
  return out;
}

/**
 * The warning of two labels that print the same served figure in every state: two declared with
 * the same measure, or two figure tracking finds following one figure with the same value in every
 * run either is printed in.
 */
export function duplicateLabels(
  expectations: Expectations | null,
  tracking: readonly LabelTracking[],
  all: readonly Judged[],
): string[] {
  const warnings: string[] = [];
  const byMeasure = new Map<string, string[]>();
  for (const [label, measure] of expectations?.measures ?? []) {
    const key = describeMeasure(measure);
    byMeasure.set(key, [...(byMeasure.get(key) ?? []), label]);
  }
  for (const [measure, labels] of byMeasure)
    if (labels.length > 1)
      warnings.push(
        `${labels.map((l) => `'${l}'`).join(' and ')} print the same served figure (${measure}) in every state`,
      );
  const follows = tracking.filter((t) => t.kind === 'follows' && !expectations?.measures.has(t.label));
  const runs = all.flatMap((j) => (j.tracked ? [j.tracked] : []));
  for (let i = 0; i < follows.length; i += 1) {
    for (let k = i + 1; k < follows.length; k += 1) {
      const a = follows[i] as Extract<LabelTracking, { kind: 'follows' }>;
      const b = follows[k] as Extract<LabelTracking, { kind: 'follows' }>;
      const shared = a.figures.find((f) => !/^(ratio|percent)\(/.test(f) && b.figures.includes(f));
      if (!shared) continue;
      const same = runs.every((r) => r.values.get(a.label) === r.values.get(b.label));
      if (same)
        warnings.push(
          `'${a.label}' and '${b.label}' print the same served figure (${shared}) in every state`,
        );
    }
  }
  return warnings;
}

/** A `watches` pattern that matched no service in any run: a usage error (exit 2). */
export function unmatchedWatches(expectations: Expectations | null, all: readonly Judged[]): string[] {
  const watches = expectations?.watches ?? [];
  if (watches.length === 0) return [];
  const served = all.filter((j) => j.served?.answer === 'data');
  if (served.length === 0) return [];
  const matched = new Set(served.flatMap((j) => j.served?.matchedWatches ?? []));
  const seen = [...new Set(served.flatMap((j) => j.served?.services ?? []))].sort();
  return watches
    .filter((w) => !matched.has(w.pattern))
    .map(
      (w) =>
        `watches: '${w.pattern}' matches no service in any run (closest services: ${closestKeys(
          w.pattern,
          seen,
          3,
        )
          .map((s) => `'${s}'`)
          .join(', ')})`,
    );
}
