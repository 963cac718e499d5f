import type { ClauseLevel } from '../catalog/catalog.ts';
import type { Expectations } from './expectations.ts';
import type { LabelTracking, TrackedRun } from './figure-tracking.ts';
import type { Finding, RunJudgement } from './judge-run.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { StateName } from './plugin-output.ts';
import type { RunSlots } from './run-slots.ts';
import type { Sandbox, SandboxReport } from './sandbox.ts';
import type { CatalogScenario } from './scenario-catalog.ts';
import type { CatalogReadings } from './served-catalog.ts';

/** The clauses that have extra runs of their own (certify-plan.ts, certify-run-extra.ts). */
export const EXTRA_RUN_CLAUSES = [
  'PLUGIN-HELP-VERSION',
  'PLUGIN-LOCALE-INDEPENDENT',
  'PLUGIN-OWN-TIMEOUT',
] as const;
export type ExtraRunClause = (typeof EXTRA_RUN_CLAUSES)[number];

/** The evidence of one plug-in run (secrets redacted). */
export interface RunEvidence {
  /** The command as run, `{auth}` left as its placeholder name. */
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  state: StateName | null;
  /** The agent text a fetcher got at `{host}:{port}`; `null`: connection refused; absent: no PBX. */
  servedText?: string | null;
  /** What the run did (scenario set-up, locale, proxy, isolated folders …). */
  notes: Record<string, unknown>;
}

/** One run of the plug-in: on a catalog scenario, a generated state, or an extra run of a clause. */
export interface RunRecord {
  /** Its name in the reports: the scenario, `generated #3`, `--help`, … */
  run: string;
  description: string;
  /** Whether the vendor's expectations name this scenario. */
  expected: boolean;
  /** `null` when the harness could not set the run up (then `harnessProblem` says why). */
  evidence: RunEvidence | null;
  harnessProblem?: string;
  /** The clauses judged on this run, and those it broke. */
  judged: Set<PluginClauseId>;
  findings: Finding[];
  /** For a generated state: the scenario file it was drawn as (replays it). */
  scenarioFile?: string;
}

/** One verdict per PLUGIN clause over every run. */
export interface ClauseOutcome {
  id: PluginClauseId;
  level: ClauseLevel;
  /** `fail`: a `must` rule broken; `warn`: a `should` rule broken. */
  verdict: 'pass' | 'fail' | 'warn' | 'not-verifiable';
  /** Why it could not be verified. */
  reason?: string;
  /** The runs it was judged on, and the findings against it (the worst run's first). */
  runs: string[];
  findings: { run: string; message: string }[];
}

export interface CertifyInput {
  /** The plug-in's argv with placeholders. */
  argv: string[];
  expectations: Expectations | null;
  scenarios: CatalogScenario[];
  /** `--scenario-file`: one more scenario from a file (a shrunk failure to replay). */
  scenarioFile?: { name: string; description: string; path: string };
  /** `--recording`: recordings (`pbx-conformance record`) certified beside the catalog, each replayed byte for byte. */
  recordings?: { name: string; description: string; path: string }[];
  runs: number;
  seed?: number;
  timeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * The level of each PLUGIN clause, from the catalog; only the judge stage reads it, so it may
   * come as a promise still being read while the runs go (the CLI starts the runs first).
   */
  levels: ReadonlyMap<string, ClauseLevel> | Promise<ReadonlyMap<string, ClauseLevel>>;
  /** Where a shrunk failure and the generated states' files are written (the reports directory). */
  reportsDir: string;
  /** The command line that replays a scenario file, for the shrunk failure's evidence. */
  replayCommand: (scenarioFile: string) => string;
  progress?: (line: string) => void;
  /**
   * The extra runs (help, version, locale, held-back answer): all of them (`true`, the default),
   * none (`false`), or only those of the clauses listed (the features' scenarios, each of which
   * asserts one clause, issue 31 §1); a clause whose runs are left out is not verifiable.
   */
  extraRuns?: boolean | readonly ExtraRunClause[];
  /**
   * The sandbox every plug-in run is sealed in (sandbox.ts, `probeSandbox`, probed once per
   * certification); absent: certifyPlugin probes it with `env`.
   */
  sandbox?: Sandbox;
  /** The slots the plug-in runs take turns for (run-slots.ts); absent: the process's shared ones. */
  slots?: RunSlots;
  /** Filled in as the runs go, when given: where the time went (`npm run bench -- certify`). */
  stages?: StageTimes;
}

/**
 * Time spent per stage of a certification, summed over its runs (runs overlap, so the sum may
 * exceed the wall time): starting each run's PBX (and its proxy), the plug-in's own runs, and
 * judging (reading what was served, the per-run and the whole-certification clauses).
 */
export interface StageTimes {
  pbxStartMs: number;
  pluginRunMs: number;
  judgingMs: number;
}

/** Adds the time since `startedMs` (a `performance.now()`) to one stage, when stages are kept. */
export function addStage(stages: StageTimes | undefined, stage: keyof StageTimes, startedMs: number): void {
  if (stages) stages[stage] += performance.now() - startedMs;
}

/** What a certification proved: `form` (no file), `state` (watched services), `values` (every label declared). */
export type CertificationLevel = 'form' | 'state' | 'values';

export interface Coverage {
  /** Labels certified against a declared figure (`measures`). */
  declared: number;
  /** Labels not declared but followed by figure tracking. */
  tracked: number;
  /** Labels neither declared nor traced. */
  notTraced: number;
  /** Distinct watched services matched in some run. */
  watched: number;
  /** Every perfdata label printed in some run. */
  labels: number;
}

/**
 * What the generated states of `--runs` came to (certify-run-generated.ts); the report shows it as
 * it is (the evidence `generated states (fast-check)`), the certificate states `runs` and `seed`.
 */
export interface GeneratedRuns {
  /** States drawn. */
  runs: number;
  /** The seed they were drawn with (`--seed` repeats them). */
  seed: number;
  /** The folder of the drawn states' files, relative to the reports directory. */
  files: string;
  /** For a draw that broke a state-independent `must` rule: the draw it was shrunk from (`generated #3`). */
  shrunkFrom?: string;
  /** The plug-in runs the shrinking took. */
  shrinkRuns?: number;
  /** fast-check's counterexample path of the shrunk draw (`null` when it gave none). */
  path?: string | null;
  /** The shrunk state's scenario file (`shrunk-seed-<seed>.json`). */
  shrunkScenarioFile?: string;
  /** The command that replays the shrunk state. */
  replay?: string;
  /** What the shrunk state breaks. */
  shrunkFindings?: Finding[];
  /** Why a generated state could not be set up (the harness's fault: exit 2). */
  harnessProblem?: string;
}

export interface CertifyResult {
  runs: RunRecord[];
  clauses: ClauseOutcome[];
  level: CertificationLevel;
  coverage: Coverage;
  /** What was not certified, one plain sentence each ("values: 2 of 5 labels not declared (a, b)"). */
  notCertified: string[];
  /** Warnings that fail nothing (two labels that print the same served figure in every state). */
  warnings: string[];
  /** Usage errors found only by running (a `watches` pattern that matched no service in any run): exit 2. */
  usageProblems: string[];
  /** Figure tracking per perfdata label (PLUGIN-FIGURES-FOLLOW-SERVED). */
  tracking: LabelTracking[];
  /** With `--runs`: seed, runs, and a shrunk failure's file and replay command. */
  generated?: GeneratedRuns;
  /** How sealed the plug-in's runs were (issue 28 §4): "not sealed" lists each protection absent. */
  sandbox: SandboxReport;
  startedAt: Date;
  finishedAt: Date;
}

/** Everything one run yields before the clauses that span runs are judged. */
export interface Judged {
  record: RunRecord;
  judgement: RunJudgement | null;
  tracked: TrackedRun | null;
  /** What the PBX served in a scenario run (absent for the extra runs). */
  served?: ServedRun;
}

/** What the PBX served in one scenario run, as the judge of the figures needs it. */
export interface ServedRun {
  /** Data, or none: the port refused, closed without a byte, one `ERROR:` line, or every section left out. */
  answer: 'data' | 'refused' | 'empty' | 'error' | 'sections-missing';
  /** The served-figure collection (every catalog figure, unknowns marked); `null` without data. */
  readings: CatalogReadings | null;
  /** The `watches` patterns that matched a service, and the services they matched. */
  matchedWatches: string[];
  watchedServices: string[];
  /** Every `<<<local>>>` service the PBX served. */
  services: string[];
}
