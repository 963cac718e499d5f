import type { CompatibilityReport, Verdict } from '../report/model.ts';

/** A fact the certification states, or why it cannot: never a made-up value. */
export type Stated<T> = { value: T } | { absent: string };

/** The certificate levels, weakest first (issue 28 §3): output form, state, served values. */
export const CERTIFICATE_LEVELS = ['form', 'state', 'values'] as const;
export type CertificateLevel = (typeof CERTIFICATE_LEVELS)[number];

/** What kind of run a certification made: a catalog scenario, a drawn state, an extra run of a clause … */
export type RunKind = 'catalog' | 'generated' | 'recording' | 'scenario-file' | 'extra';

/** One run of the certification and how it went (`broke`: it broke a rule; the clause verdicts say which). */
export interface PredicateRun {
  name: string;
  kind: RunKind;
  outcome: 'ok' | 'broke' | 'not-verifiable';
  /** For a generated state: the SHA-256 of the scenario file it was drawn as (replays it). */
  stateSha256?: string;
}

/** The predicate of a plug-in certification (schemas/plugin-certification.schema.json). */
export interface CertificationPredicate {
  tool: { name: 'pbx-conformance'; version: string };
  catalog: { format: number | null; fingerprint: string };
  plugin: { name: string; kind: 'command' | 'mkp' | 'plugin-dir'; command?: string };
  /** `passed`: no `must` rule broken and no run the harness could not set up. */
  result: 'passed' | 'failed';
  level: Stated<CertificateLevel>;
  coverage: Stated<Record<string, unknown>>;
  clauses: { id: string; level: 'must' | 'should' | null; verdict: Verdict }[];
  runs: PredicateRun[];
  generated: { runs: number; seed: number } | null;
  sandbox: Stated<Record<string, unknown>>;
  expectations: { name: string; sha256: string } | null;
  startedAt: string;
  finishedAt: string;
}

export interface PredicateInput {
  report: CompatibilityReport;
  plugin: CertificationPredicate['plugin'];
  runs: PredicateRun[];
  generated: CertificationPredicate['generated'];
  expectations: CertificationPredicate['expectations'];
  level: Stated<CertificateLevel>;
  coverage: Stated<Record<string, unknown>>;
  sandbox: Stated<Record<string, unknown>>;
}

/**
 * The predicate of one certification, from its report (the one result model: every clause's
 * verdict, the times, the tool version, the outcome) and what the report does not hold.
 */
export function certificationPredicate(input: PredicateInput): CertificationPredicate {
  const { report } = input;
  return {
    tool: { name: 'pbx-conformance', version: report.metadata.toolVersion },
    // The catalog that judged the run, as its report names it.
    catalog: { format: report.metadata.catalogVersion, fingerprint: report.metadata.catalogFingerprint },
    plugin: input.plugin,
    result: report.outcome.passed ? 'passed' : 'failed',
    level: input.level,
    coverage: input.coverage,
    clauses: report.interfaces.flatMap((face) =>
      face.clauses.map((c) => ({ id: c.id, level: c.level ?? null, verdict: c.verdict })),
    ),
    runs: input.runs,
    generated: input.generated,
    sandbox: input.sandbox,
    expectations: input.expectations,
    startedAt: report.metadata.startedAt,
    finishedAt: report.metadata.finishedAt,
  };
}
