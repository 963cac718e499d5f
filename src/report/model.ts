import type { CheckKind, ClauseLevel } from '../catalog/catalog.ts';
import type { ReportEvidence } from './attachments.ts';
import type { RunIdentity } from './run-identity.ts';

/**
 * The one result model of a conformance run. JSON, HTML and JUnit are all rendered from it, so
 * they can never disagree. Verdicts are plain discriminated data, never exceptions.
 */

/** Verdict of one clause on one target. */
/**
 * `not-run`: scenarios in the features prove the clause, but none ran (a tag filter left them out);
 * `not-covered`: no scenario in the features proves it. `warn`: a `should` rule (a clause of
 * `level: should`) was broken: reported in every rendering, never a failure of the run.
 */
export type Verdict =
  | 'pass'
  | 'warn'
  | 'fail'
  | 'not-verifiable'
  | 'not-run'
  | 'not-covered'
  | 'not-testable';

export const VERDICTS: readonly Verdict[] = [
  'pass',
  'warn',
  'fail',
  'not-verifiable',
  'not-run',
  'not-covered',
  'not-testable',
];

/** Cucumber's final status of a scenario (lower case of TestStepResultStatus). */
export type ScenarioStatus =
  | 'passed'
  | 'failed'
  | 'skipped'
  | 'pending'
  | 'undefined'
  | 'ambiguous'
  | 'unknown';

export interface ScenarioFailure {
  /** The step that failed, e.g. `Then the reply is the agent text`. */
  step: string;
  message: string;
}

export interface ScenarioResult {
  name: string;
  /** Feature file, relative to the runner's working directory. */
  uri: string;
  line: number;
  status: ScenarioStatus;
  durationMs: number;
  failure?: ScenarioFailure;
  /** Full for failures, not-verifiable and other results; compact for passes unless `--evidence full`. */
  evidence: ReportEvidence[];
  /** Set when a step attached a not-verifiable reason (the scenario is then skipped). */
  notVerifiableReason?: string;
}

/**
 * Across the rounds of `verify --repeat N`: the same verdict every time (`stable-other`: always
 * not verifiable, say), or `flaky` when the rounds disagree. A flaky clause fails the run.
 */
export type Stability = 'stable-pass' | 'stable-fail' | 'flaky' | 'stable-other';

/** How a clause relates to the target's expected-failures list ("known gaps can only shrink"). */
export type BaselineStatus = 'expected-failure' | 'unexpected-failure' | 'unexpected-pass' | 'listed-not-run';

export interface ClauseResult {
  id: string;
  /** Interface prefix, e.g. `MON`. */
  interface: string;
  spec: string;
  section: string;
  rule: string;
  check: CheckKind;
  property: boolean;
  /** `plugin` clauses: `must` (a broken rule fails a certification) or `should` (a warning). */
  level?: ClauseLevel;
  verdict: Verdict;
  /** For `not-verifiable`: why (the distinct reasons the steps attached, joined). */
  reason?: string;
  /** With `verify --repeat N`: the verdict of each round and what they add up to. */
  repeat?: { verdicts: Verdict[]; stability: Stability };
  /** Only set for clauses the baseline concerns: listed, or failing without being listed. */
  baseline?: { status: BaselineStatus; reason?: string };
  scenarios: ScenarioResult[];
}

export type VerdictCounts = Record<Verdict, number>;

export interface InterfaceResult {
  id: string;
  /** Passed clauses out of testable clauses (all but `not-testable`). */
  score: { passed: number; testable: number };
  counts: VerdictCounts;
  clauses: ClauseResult[];
}

/** The commands that report through this model. */
export type ReportCommand = 'verify' | 'certify-plugin' | 'fuzz' | 'resolver-check';

export interface RunMetadata {
  /** The command whose run this is. */
  command: ReportCommand;
  /** `embedded` for the built-in simulator, else the `name` of the target file. */
  target: string;
  targetFile: string | null;
  startedAt: string;
  finishedAt: string;
  toolVersion: string;
  catalogVersion: number;
  /** `sha256:` and 12 hex digits of the catalog file (src/report/catalog-identity.ts). */
  catalogFingerprint: string;
  /** The version of Cucumber that ran the scenarios; `null` for a command that runs none (fuzz). */
  cucumberVersion: string | null;
  tagExpression: string | null;
  /** `{base_url}` of a remote target's PBX web server, for the reproduce commands of failures. */
  webUrl?: string | null;
  /**
   * How a report of another command than `verify` reruns one failing scenario (src/report/reproduce.ts):
   * `certify-plugin` with its options (`--expectations FILE`, `--scenario-file FILE`) and the
   * plug-in command as shown (shell-quoted, secrets as placeholder names).
   */
  rerun?: { command: 'certify-plugin'; options: string[]; plugin: string };
  /** `verify` and `report merge`: the run and shard this report is (src/report/run-identity.ts). */
  run?: RunIdentity;
}

export interface BaselineSummary {
  /** The target's expected-failures file (features/expected-failures/<target>.yaml). */
  file: string;
  /** Whether that file exists; without it no failure is expected. */
  present: boolean;
  expectedFailures: string[];
  unexpectedFailures: string[];
  /** Listed as expected failures but now passing: remove them from the file. */
  unexpectedPasses: string[];
  /** Listed but neither passed nor failed in this run (filtered out, not verifiable, …). */
  listedNotRun: string[];
  /** Listed with an `until` day that has passed: these entries excuse nothing any more. */
  expired: string[];
}

export interface ScenarioCounts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** pending, undefined, ambiguous, unknown. */
  other: number;
}

/** A scenario that cites no catalog clause; shown so nothing that ran goes unreported. */
export interface UntracedScenario {
  name: string;
  uri: string;
  line: number;
  status: ScenarioStatus;
}

/**
 * What a plug-in certification (`certify-plugin`) proved: its level (`form`: no declaration;
 * `state`: watched services; `values`: every perfdata label declared), its coverage, and plainly
 * what it did not certify. Only in certify-plugin's reports.
 */
export interface CertificationSummary {
  level: 'form' | 'state' | 'values';
  coverage: { declared: number; tracked: number; notTraced: number; watched: number; labels: number };
  notCertified: string[];
  warnings: string[];
}

/**
 * certify-plugin only: how sealed the plug-in's runs were (issue 28 §4, src/certify/sandbox.ts).
 * `sealed` only when every protection is present; a certificate repeats it.
 */
export interface SandboxSummary {
  sealed: boolean;
  /** The sandbox tool as it names itself (`bubblewrap 0.8.0`), `null` when none could run. */
  tool: string | null;
  /** Why the runs were not sealed. */
  reason?: string;
  /** Every protection, present or absent (`environment`, `read-only-filesystem`, …). */
  protections: { name: string; present: boolean; description: string }[];
}

export interface CompatibilityReport {
  reportVersion: 1;
  certification?: CertificationSummary;
  metadata: RunMetadata;
  scenarios: ScenarioCounts;
  clauses: VerdictCounts;
  interfaces: InterfaceResult[];
  untracedScenarios: UntracedScenario[];
  baseline: BaselineSummary;
  /** `passed` only when nothing unexpected failed or passed and at least one scenario ran. */
  outcome: { passed: boolean; reasons: string[] };
  /** certify-plugin: how sealed the plug-in's runs were. */
  sandbox?: SandboxSummary;
  /**
   * Each distinct head of the passes' compact evidence once, by the SHA-256 (hex) of its text
   * (`CompactEvidence.headSha256`, issue 29 item 17), packed: `data` is the base64 of the gzip of
   * the JSON object `{ "<sha256>": "<head>", … }` (`readEvidenceHeads` unpacks it). Absent when no
   * compact evidence has a head.
   */
  evidenceHeads?: PackedEvidenceHeads;
}

/** The report's table of evidence heads, packed (see `CompatibilityReport.evidenceHeads`). */
export interface PackedEvidenceHeads {
  encoding: 'gzip+base64';
  /** How many heads `data` holds. */
  count: number;
  data: string;
}

/** One line on a sandbox: sealed with its tool, or not sealed, why, and what is absent. */
export function sandboxLine(sandbox: SandboxSummary): string {
  if (sandbox.sealed)
    return `sealed (${sandbox.tool ?? 'sandbox'}): ${sandbox.protections.map((p) => p.name).join(', ')}`;
  const absent = sandbox.protections.filter((p) => !p.present).map((p) => p.name);
  return `NOT SEALED: ${sandbox.reason ?? 'no sandbox'}; absent: ${absent.join(', ')}`;
}

export function emptyVerdictCounts(): VerdictCounts {
  return {
    pass: 0,
    warn: 0,
    fail: 0,
    'not-verifiable': 0,
    'not-run': 0,
    'not-covered': 0,
    'not-testable': 0,
  };
}
