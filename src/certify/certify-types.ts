import type { ClauseLevel } from '../catalog/catalog.ts';
import type { Expectations } from './expectations.ts';
import type { LabelTracking, TrackedRun } from './figure-tracking.ts';
import type { Finding, RunJudgement } from './judge-run.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { StateName } from './plugin-output.ts';
import type { Sandbox, SandboxReport } from './sandbox.ts';
import type { CatalogScenario } from './scenario-catalog.ts';

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
  /** The level of each PLUGIN clause, from the catalog. */
  levels: ReadonlyMap<string, ClauseLevel>;
  /** Where a shrunk failure and the generated states' files are written (the reports directory). */
  reportsDir: string;
  /** The command line that replays a scenario file, for the shrunk failure's evidence. */
  replayCommand: (scenarioFile: string) => string;
  progress?: (line: string) => void;
  /** Skip the extra runs (help, version, locale, held-back answer): for focused tests only. */
  extraRuns?: boolean;
  /**
   * The sandbox every plug-in run is sealed in (sandbox.ts, `probeSandbox`, probed once per
   * certification); absent: certifyPlugin probes it with `env`.
   */
  sandbox?: Sandbox;
}

export interface CertifyResult {
  runs: RunRecord[];
  clauses: ClauseOutcome[];
  /** Figure tracking per perfdata label (PLUGIN-FIGURES-FOLLOW-SERVED). */
  tracking: LabelTracking[];
  /** With `--runs`: seed, runs, and a shrunk failure's file and replay command. */
  generated?: Record<string, unknown>;
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
}
