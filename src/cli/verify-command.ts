import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parseShard } from '../../simulators/fleet/index.ts';
import { type Catalog, catalogPrefixes } from '../catalog/catalog.ts';
import { loadCatalog } from '../catalog/load-catalog.ts';
import { scanFeatureTags } from '../catalog/scan-feature-tags.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { DEFAULT_REPORTS_DIR, EXPECTED_FAILURES_DIR, FEATURES_DIR } from '../core/project-paths.ts';
import type { TargetFile } from '../core/target-file.ts';
import { TOOL_VERSION } from '../core/tool-version.ts';
import { buildReport, matchesPrefix } from '../report/build-report.ts';
import type { EvidenceForm } from '../report/compact-evidence.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import {
  type ExpectedFailures,
  loadBaselineFile,
  loadExpectedFailures,
} from '../report/expected-failures.ts';
import type { CompatibilityReport } from '../report/model.ts';
import { derivedRunId, RUN_ID_PATTERN, type RunSettings } from '../report/run-identity.ts';
import { collectScenarioResults, cucumberVersion } from '../report/scenario-results.ts';
import { writeReports } from '../report/write-reports.ts';
import {
  type CredentialCheck,
  checkCredentials,
  rejectedCredentialLines,
} from '../runner/credential-preflight.ts';
import { expectedCosts } from '../runner/expected-costs.ts';
import { loadTarget } from '../runner/load-target.ts';
import { preflight } from '../runner/preflight.ts';
import { EMBEDDED_TARGET_NAME } from '../runner/read-target-name.ts';
import { type RunSuiteOptions, runSuite, type SuiteRun } from '../runner/run-suite.ts';
import { targetEndpoints } from '../runner/target-endpoints.ts';
import { targetInterfaces } from '../runner/target-interfaces.ts';
import { type Probe, tcpProbe } from '../runner/tcp-probe.ts';
import type { CliIo } from './cli-io.ts';
import { formatSummary } from './format-summary.ts';

export interface VerifyOptions {
  target?: string;
  tags?: string;
  reports?: string;
  quiet?: boolean;
  parallel?: number;
  /** Where catalog, baselines and suite come from; tests point these at throwaway files. */
  catalogPath?: string;
  expectedFailuresDir?: string;
  suite?: Pick<RunSuiteOptions, 'cwd' | 'featurePaths' | 'importPaths'>;
  /** How the preflight tries the target's endpoints; default a real TCP connect. */
  probe?: Probe;
  /** How the preflight tries the target's credentials; default one request per credential. */
  credentials?: (target: TargetFile) => Promise<CredentialCheck[]>;
  /** An expected-failures file anywhere (relative to the working directory), instead of the target's own. */
  baseline?: string;
  /** Clause-id prefixes whose testable clauses must all be verified. */
  require?: string[];
  /** Least share (percent) of passing clauses among the testable clauses of the named interfaces. */
  failUnder?: number;
  /** Runs the selection this many times and classifies each clause as stable pass, stable fail or flaky. */
  repeat?: number;
  /** `i/N` (or `N` with JOB_COMPLETION_INDEX): only shard i of the selected scenarios (cucumber's `shard`). */
  shard?: string;
  /** How passing scenarios keep their evidence: compact (default) or full (`--evidence full`). */
  evidence?: EvidenceForm;
  /** The id every shard of one run shares (`--run-id`); default PBX_CONFORMANCE_RUN_ID, else derived. */
  runId?: string;
}

/**
 * `verify`: runs the suite against a target, writes the three reports and prints a summary.
 * Exit code 0 when nothing unexpected failed or passed, the coverage gates hold and at least one
 * scenario ran, 1 otherwise. Harness problems throw {@link HarnessError} (exit 2) and never become
 * verdicts. Before any scenario runs: the target file is validated strictly against
 * schemas/target.schema.json, the baseline against schemas/expected-failures.schema.json, the
 * reports folder is made and written to, the target's endpoints are tried (none answering stops
 * the run, each silent one gets a warning line) and so are its credentials (a rejected one stops
 * the run with one line per credential).
 */
export async function verifyCommand(options: VerifyOptions, io: CliIo): Promise<number> {
  const targetFile = options.target === undefined ? undefined : resolve(io.cwd, options.target);
  const target = targetFile === undefined ? undefined : await harness(loadTarget(targetFile));
  const targetName = target?.name ?? EMBEDDED_TARGET_NAME;
  const catalog: Catalog = await harness(loadCatalog(options.catalogPath));
  const clauseIds = new Set(catalog.clauses.map((clause) => clause.id));
  const expectedFailures: ExpectedFailures = await harness(
    options.baseline === undefined
      ? loadExpectedFailures(
          options.expectedFailuresDir ?? expectedFailuresDir(io.cwd, target !== undefined),
          targetName,
          clauseIds,
        )
      : loadBaselineFile(resolveFrom(io.cwd, options.baseline), clauseIds),
  );
  for (const prefix of options.require ?? []) {
    if (!catalog.clauses.some((clause) => matchesPrefix(clause.id, prefix))) {
      throw new HarnessError(`--require ${prefix} matches no clause of the catalog`);
    }
  }
  const dir = resolveFrom(io.cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  await harness(ensureWritableDir(dir));
  // After the cheap checks: the preflight may wait a few seconds for a target that does not answer.
  if (target !== undefined) {
    await checkReachable(target, options.probe ?? tcpProbe, io);
    await checkAccepted(target, options.credentials ?? checkCredentials, io);
  }
  let shard: string | undefined;
  let shardOf = { index: 1, total: 1 };
  if (options.shard !== undefined) {
    try {
      const parsed = parseShard(options.shard, io.env);
      shard = `${parsed.index + 1}/${parsed.total}`;
      shardOf = { index: parsed.index + 1, total: parsed.total };
    } catch (error) {
      throw new HarnessError(oneLineMessage(error));
    }
  }
  const runId = await chooseRunId(options, io, {
    target: targetName,
    targetText: targetFile === undefined ? null : await readFile(targetFile, 'utf8'),
    tagExpression: options.tags ?? null,
    shardTotal: shardOf.total,
    toolVersion: TOOL_VERSION,
    catalogFingerprint: catalog.fingerprint,
  });
  const repeat = options.repeat ?? 1;
  const expectedCostMs = options.quiet ? undefined : await expectedCosts(dir);
  const runs: SuiteRun[] = [];
  for (let round = 1; round <= repeat; round++) {
    if (repeat > 1 && !options.quiet) io.stdout.write(`run ${round} of ${repeat}\n`);
    const run: SuiteRun = await harness(
      runSuite({
        ...options.suite,
        ...(targetFile === undefined || target === undefined
          ? {}
          : { target: { file: targetFile, description: target } }),
        ...(options.tags === undefined ? {} : { tags: options.tags }),
        ...(shard === undefined ? {} : { shard }),
        ...(expectedCostMs === undefined ? {} : { expectedCostMs }),
        stdout: io.stdout,
        stderr: io.stderr,
        env: io.env,
        quiet: options.quiet ?? false,
        parallel: options.parallel ?? 0,
      }),
    );
    if (run.parseErrors.length > 0) {
      throw new HarnessError(`feature file does not parse: ${run.parseErrors[0]}`);
    }
    const [firstProblem, ...moreProblems] = run.stepDefinitionProblems;
    if (firstProblem !== undefined) {
      throw new HarnessError(
        `the harness has no single step definition for ${firstProblem}${moreProblems.length ? ` (and ${moreProblems.length} more steps)` : ''}`,
      );
    }
    runs.push(run);
  }
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (first === undefined || last === undefined) throw new HarnessError('--repeat must be at least 1');
  const envelopes = runs.flatMap((run) => run.envelopes);
  const report = buildReport({
    run: {
      command: 'verify',
      target: targetName,
      targetFile: targetFile ?? null,
      startedAt: first.startedAt,
      finishedAt: last.finishedAt,
      cucumberVersion: cucumberVersion(envelopes),
      tagExpression: options.tags ?? null,
      webUrl: target?.pbx.webUrl ?? null,
      run: { id: runId, shard: shardOf },
    },
    catalog,
    results: {
      scenarios: collectScenarioResults(envelopes),
      catalog,
      ...(runs.length > 1 ? { repeatedRuns: runs.map((run) => collectScenarioResults(run.envelopes)) } : {}),
      evidence: options.evidence ?? 'compact',
      ...(options.suite?.featurePaths ? {} : { provedInFeatures: await clausesInFeatures() }),
    },
    expectedFailures,
    gates: {
      namedInterfaces: targetInterfaces(target, catalogPrefixes(catalog)),
      ...(options.require ? { require: options.require } : {}),
      ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
    },
  });
  const paths = await harness(writeReports(report, dir));
  const fixtureFault = wholeRunFixtureFault(report);
  if (fixtureFault !== undefined) {
    throw new HarnessError(`the harness could not set up its fixtures for any scenario: ${fixtureFault}`);
  }
  if (!options.quiet) io.stdout.write('\n');
  io.stdout.write(formatSummary(report, paths, io.cwd));
  return report.outcome.passed ? 0 : 1;
}

/**
 * The run id of this report (issue 29, item 3): `--run-id`, else PBX_CONFORMANCE_RUN_ID, else
 * derived from the settings every shard of the run shares, so shards started alike agree.
 */
async function chooseRunId(options: VerifyOptions, io: CliIo, settings: RunSettings): Promise<string> {
  const given = options.runId ?? io.env['PBX_CONFORMANCE_RUN_ID'];
  if (given === undefined || given === '') return derivedRunId(settings);
  if (!RUN_ID_PATTERN.test(given))
    throw new HarnessError(
      `${options.runId === undefined ? 'PBX_CONFORMANCE_RUN_ID' : '--run-id'} must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  return given;
}

/** Tries the target's endpoints: none answering is a harness error, each one not answering a warning line. */
async function checkReachable(target: TargetFile, probe: Probe, io: CliIo): Promise<void> {
  const verdict = await preflight(targetEndpoints(target), probe);
  if (verdict.kind === 'unreachable') throw new HarnessError(verdict.message);
  for (const warning of verdict.warnings) io.stderr.write(`pbx-conformance: ${warning}\n`);
}

/**
 * The reason when every scenario that ran was not verifiable because a harness fixture failed
 * (steps/support/fixture-error.ts): then the whole run is the harness's fault, exit 2.
 */
function wholeRunFixtureFault(report: CompatibilityReport): string | undefined {
  const scenarios = new Set(report.interfaces.flatMap((i) => i.clauses.flatMap((c) => c.scenarios)));
  if (scenarios.size === 0) return undefined;
  const reasons = [...scenarios].map((s) => s.notVerifiableReason);
  if (!reasons.every((reason) => reason?.startsWith('harness fixture: '))) return undefined;
  return reasons[0]?.replace(/^harness fixture: /, '');
}

/** Stops the run when the target rejects a credential its file names: one line per credential. */
async function checkAccepted(
  target: TargetFile,
  check: (target: TargetFile) => Promise<CredentialCheck[]>,
  io: CliIo,
): Promise<void> {
  const rejected = rejectedCredentialLines(await harness(check(target)));
  if (rejected.length === 0) return;
  for (const line of rejected) io.stderr.write(`pbx-conformance: ${line}\n`);
  throw new HarnessError(
    `${rejected.length} credential(s) of the target file rejected; fix them before the run (no scenario ran)`,
  );
}

async function harness<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(oneLineMessage(error));
  }
}

/**
 * Where a target's own baseline (`<name>.yaml`) is looked for: a target file's in the user's
 * project, `features/expected-failures/` of the working directory (issue 20: never inside the
 * installed package); the embedded simulator's is the tool's own.
 */
function expectedFailuresDir(cwd: string, targetFile: boolean): string {
  return targetFile ? resolve(cwd, 'features', 'expected-failures') : EXPECTED_FAILURES_DIR;
}

function resolveFrom(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** Clause ids that the project's feature files cite (a tag filter may keep their scenarios from running). */
async function clausesInFeatures(): Promise<Set<string>> {
  const scan = await scanFeatureTags(FEATURES_DIR);
  return new Set(scan.scenarios.flatMap((scenario) => scenario.tags.map((tag) => tag.replace(/^@/, ''))));
}
