import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadScenarioFile, type PbxState } from '../../simulators/pbx/index.ts';
import { recordingStartOptions } from '../record/recording-start.ts';
import { checkRun, type RunCheck } from './check-run.ts';
import { displayCommand, fillPlaceholders, type PlaceholderValues, redactSecrets } from './command-line.ts';
import type { Expectations } from './expectations.ts';
import { type OpenScenario, openScenario, type ScenarioBase } from './open-scenario.ts';
import type { StateName } from './plugin-output.ts';
import { type PluginRun, runPlugin } from './run-plugin.ts';
import type { CatalogScenario, ScenarioSetup } from './scenario-catalog.ts';
import { type GeneratedScenarioFile, generatedScenarioArbitrary } from './state-arbitrary.ts';

export type CertifyVerdict = 'pass' | 'fail' | 'not-verifiable';

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
  /** The agent text a fetcher got at `{host}:{port}`; `null`: connection refused. */
  servedText: string | null;
  /** What the scenario did (proxy, fault, extension mode …). */
  notes: Record<string, unknown>;
}

/** One verdict per plug-in × scenario. */
export interface ScenarioVerdict {
  scenario: string;
  description: string;
  verdict: CertifyVerdict;
  /** Why it failed (built-in checks, expectations, twin), or why it could not be verified. */
  reasons: string[];
  /** Whether the vendor's expectations name this scenario. */
  expected: boolean;
  /** For the generated states: seed, runs, path, the shrunk scenario file and its replay command. */
  property?: Record<string, unknown>;
  evidence: RunEvidence | null;
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
  /** Where a shrunk failure is written (the reports directory). */
  reportsDir: string;
  /** The command line that replays a scenario file, for the shrunk failure's evidence. */
  replayCommand: (scenarioFile: string) => string;
  progress?: (line: string) => void;
}

export interface CertifyResult {
  verdicts: ScenarioVerdict[];
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Certifies one plug-in: each selected catalog scenario on a fresh simulator, then the plain-twin
 * comparisons, then (with `runs > 0`) the generated states. Never throws for the plug-in's sake.
 */
export async function certifyPlugin(input: CertifyInput): Promise<CertifyResult> {
  const startedAt = new Date();
  const verdicts: ScenarioVerdict[] = [];
  for (const scenario of input.scenarios) {
    input.progress?.(`${scenario.name} …`);
    verdicts.push(await certifyScenario(input, scenario.name, scenario.description, scenario.setup));
  }
  if (input.scenarioFile) {
    const file = input.scenarioFile;
    input.progress?.(`${file.name} (${file.path}) …`);
    verdicts.push(
      await certifyScenario(
        input,
        file.name,
        file.description,
        { kind: 'named', scenario: file.name },
        () => ({
          state: loadScenarioFile(file.path, Date.now()),
        }),
      ),
    );
  }
  for (const recording of input.recordings ?? []) {
    input.progress?.(`${recording.name} (${recording.path}) …`);
    verdicts.push(
      await certifyScenario(
        input,
        recording.name,
        recording.description,
        { kind: 'named', scenario: recording.name },
        () => {
          const { scenario, replay } = recordingStartOptions(
            recording.path,
            input.cwd,
            'recorded',
            Date.now(),
          );
          return { state: scenario, replay };
        },
      ),
    );
  }
  compareTwins(input.scenarios, verdicts);
  if (input.runs > 0) {
    input.progress?.(`generated states (${input.runs} runs) …`);
    verdicts.push(await certifyGenerated(input));
  }
  return { verdicts, startedAt, finishedAt: new Date() };
}

async function certifyScenario(
  input: CertifyInput,
  name: string,
  description: string,
  setup: ScenarioSetup,
  base?: () => ScenarioBase,
): Promise<ScenarioVerdict> {
  const expectation = input.expectations?.scenarios.get(name);
  let outcome: { run: PluginRun; check: RunCheck; evidence: RunEvidence };
  try {
    outcome = await runOnScenario(input, setup, base?.(), expectation);
  } catch (error) {
    return {
      scenario: name,
      description,
      verdict: 'not-verifiable',
      reasons: [`the harness could not set up the scenario: ${oneLine(error)}`],
      expected: expectation !== undefined,
      evidence: null,
    };
  }
  const reasons = [...outcome.check.builtIn, ...outcome.check.expectation];
  return {
    scenario: name,
    description,
    verdict: reasons.length === 0 ? 'pass' : 'fail',
    reasons,
    expected: expectation !== undefined,
    evidence: outcome.evidence,
  };
}

async function runOnScenario(
  input: CertifyInput,
  setup: ScenarioSetup,
  base: ScenarioBase | undefined,
  expectation: Parameters<typeof checkRun>[1],
): Promise<{ run: PluginRun; check: RunCheck; evidence: RunEvidence }> {
  const opened: OpenScenario = await openScenario(setup, base);
  try {
    const run = await runPlugin({
      argv: fillPlaceholders(input.argv, opened.values),
      cwd: input.cwd,
      env: input.env,
      timeoutMs: input.timeoutMs,
    });
    const served = await opened.servedText();
    const servedText = served === null ? null : redactSecrets(served, opened.values);
    const check = checkRun(run, expectation, input.timeoutMs);
    return {
      run,
      check,
      evidence: evidenceOf(input.argv, opened.values, run, check, servedText, opened.notes),
    };
  } finally {
    await opened.close();
  }
}

function evidenceOf(
  argv: string[],
  values: PlaceholderValues,
  run: PluginRun,
  check: RunCheck,
  servedText: string | null,
  notes: Record<string, unknown>,
): RunEvidence {
  return {
    command: displayCommand(argv, values),
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: redactSecrets(run.stdout, values),
    stderr: redactSecrets(run.stderr, values),
    state: check.state,
    servedText,
    notes,
  };
}

/** A scenario with a plain twin must give the twin's state (the extension scenario and `healthy`). */
function compareTwins(scenarios: CatalogScenario[], verdicts: ScenarioVerdict[]): void {
  for (const scenario of scenarios) {
    if (!scenario.twin) continue;
    const own = verdicts.find((v) => v.scenario === scenario.name);
    const twin = verdicts.find((v) => v.scenario === scenario.twin);
    if (!own?.evidence || !twin?.evidence) continue;
    if (own.evidence.state !== twin.evidence.state) {
      own.reasons.push(
        `state ${own.evidence.state ?? 'none'} differs from its plain twin ${scenario.twin} (${twin.evidence.state ?? 'none'}): unknown entries must be ignored`,
      );
      own.verdict = 'fail';
    }
  }
}

/**
 * `--runs N`: fast-check draws scenario files; on each the plug-in must not crash, hang, leave
 * 0-3 or break the output grammar (the vendor's expectations do not apply to drawn states). A
 * failure shrinks to a minimal file, written to the reports directory with its replay command.
 */
async function certifyGenerated(input: CertifyInput): Promise<ScenarioVerdict> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-certify-'));
  let last: { file: GeneratedScenarioFile; evidence: RunEvidence; reasons: string[] } | null = null;
  let harnessProblem: string | null = null;
  let counter = 0;
  try {
    const property = fc.asyncProperty(generatedScenarioArbitrary, async (file) => {
      if (harnessProblem) return true;
      const path = join(dir, `state-${counter++}.json`);
      await writeFile(path, JSON.stringify(file));
      let outcome: { check: RunCheck; evidence: RunEvidence };
      try {
        const state: PbxState = loadScenarioFile(path, Date.now());
        outcome = await runOnScenario(input, { kind: 'named', scenario: 'generated' }, { state }, undefined);
      } catch (error) {
        harnessProblem = oneLine(error);
        return true;
      }
      if (outcome.check.builtIn.length === 0) return true;
      last = { file, evidence: outcome.evidence, reasons: outcome.check.builtIn };
      return false;
    });
    const details = await fc.check(property, {
      numRuns: input.runs,
      ...(input.seed === undefined ? {} : { seed: input.seed }),
    });
    const base = { runs: details.numRuns, seed: details.seed };
    const description = `${input.runs} PBX states drawn by fast-check: no crash, no hang, exit code 0-3, valid output.`;
    if (harnessProblem) {
      return {
        scenario: 'generated',
        description,
        verdict: 'not-verifiable',
        reasons: [`the harness could not set up a drawn state: ${harnessProblem}`],
        expected: false,
        property: base,
        evidence: null,
      };
    }
    const failure = last as { file: GeneratedScenarioFile; evidence: RunEvidence; reasons: string[] } | null;
    if (!details.failed || !failure) {
      return {
        scenario: 'generated',
        description,
        verdict: 'pass',
        reasons: [],
        expected: false,
        property: base,
        evidence: null,
      };
    }
    const name = `shrunk-seed-${details.seed >>> 0}`;
    const shrunk = {
      ...failure.file,
      name,
      description: `Shrunk by certify-plugin --runs (seed ${details.seed}): ${failure.reasons.join('; ')}`,
    };
    await mkdir(input.reportsDir, { recursive: true });
    const scenarioFile = join(input.reportsDir, `${name}.json`);
    await writeFile(scenarioFile, `${JSON.stringify(shrunk, null, 2)}\n`);
    return {
      scenario: 'generated',
      description,
      verdict: 'fail',
      reasons: failure.reasons,
      expected: false,
      property: {
        ...base,
        path: details.counterexamplePath,
        shrunkScenarioFile: scenarioFile,
        replay: input.replayCommand(scenarioFile),
        counterexample: shrunk,
      },
      evidence: failure.evidence,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
}
