import { Writable } from 'node:stream';
import {
  type IConfiguration,
  type ISupportCodeLibrary,
  loadConfiguration,
  loadSupport,
  runCucumber,
} from '@cucumber/cucumber/api';
import type { Envelope, Pickle } from '@cucumber/messages';
import { PROJECT_ROOT, RUNNING_COMPILED, STEP_DEFINITION_PATHS } from '../core/project-paths.ts';
import type { ParsedTarget } from '../core/target-file.ts';
import { Progress } from './progress.ts';
import { publishSelectedScenarios } from './selected-scenarios.ts';

/**
 * Every feature, the certify-plugin features last (Cucumber runs the paths in the order given):
 * their certifications start in the background at the start of the run (steps/certify) and are
 * made while the other features run, so that their scenarios find them done (issue 31 §1).
 */
export const DEFAULT_FEATURE_PATHS = [
  'features/*.feature',
  'features/!(certify)/**/*.feature',
  'features/certify/**/*.feature',
];

export interface RunSuiteOptions {
  /** The parsed target handed to the steps; absent = the embedded simulator. */
  target?: ParsedTarget;
  /** Cucumber tag expression, e.g. `@MON-TEXT-AGENT-SECTION or @XMLRPC`. */
  tags?: string;
  /** Feature paths or globs relative to `cwd`; default `features/**\/*.feature`. */
  featurePaths?: string[];
  /** Step definition paths or globs relative to `cwd`; default `steps/**\/*.ts` (`*.js` when compiled). */
  importPaths?: string[];
  /** Where features and steps are looked up; default the project root. */
  cwd?: string;
  /** Progress output goes here unless `quiet` (src/runner/progress.ts). */
  stdout?: Writable;
  /** Cucumber's own warnings go here. */
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
  quiet?: boolean;
  /** Worker processes; 0 or absent runs in this process. */
  parallel?: number;
  /** `i/N` (1-based): only shard i of the selected scenarios, by cucumber's own sharding. */
  shard?: string;
  /** Each scenario's expected cost for the progress estimate (src/runner/expected-costs.ts). */
  expectedCostMs?: ReadonlyMap<string, number>;
}

export interface SuiteRun {
  /** Every message Cucumber emitted, in order: the input of the report builder. */
  envelopes: Envelope[];
  /** Cucumber's own verdict; false also for expected failures, so the report decides instead. */
  cucumberSuccess: boolean;
  /** Scenarios that started (final attempts). Zero means nothing was verified. */
  scenariosRun: number;
  /** Feature files that did not parse: a harness error, never a verdict. */
  parseErrors: string[];
  /**
   * Steps that matched no step definition, or more than one (`"<step>" (<uri>): undefined`): the
   * harness's fault, never the target's (verify exits 2).
   */
  stepDefinitionProblems: string[];
  startedAt: string;
  finishedAt: string;
}

/**
 * Runs the Gherkin suite through Cucumber's programmatic API and collects its message stream.
 * Steps receive the parsed target as `worldParameters.target`. Throws only when Cucumber cannot start (support
 * code fails to load, bad tag expression): those are harness errors.
 */
export async function runSuite(options: RunSuiteOptions = {}): Promise<SuiteRun> {
  const cwd = options.cwd ?? PROJECT_ROOT;
  const parallel = options.parallel ?? 0;
  // Cucumber takes world parameters as JSON (they cross into parallel workers); the target file
  // was JSON when it was read, so the round trip changes nothing but the static type.
  const worldParameters: IConfiguration['worldParameters'] =
    options.target === undefined ? {} : JSON.parse(JSON.stringify({ target: options.target }));
  const out = options.stdout ?? process.stdout;
  const progress = options.quiet
    ? undefined
    : new Progress({
        out,
        tty: (out as Writable & { isTTY?: boolean }).isTTY === true,
        ...(options.expectedCostMs ? { expectedCostMs: options.expectedCostMs } : {}),
      });
  const environment = {
    cwd,
    // Progress comes from the message stream below; Cucumber's own formatter prints nothing.
    stdout: discard(),
    stderr: options.stderr ?? process.stderr,
    env: withTsxForWorkers(options.env ?? process.env, parallel),
  };
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: options.featurePaths ?? DEFAULT_FEATURE_PATHS,
        import: options.importPaths ?? [...STEP_DEFINITION_PATHS],
        tags: options.tags ?? '',
        format: [],
        worldParameters,
        parallel,
        strict: true,
        ...(options.shard === undefined ? {} : { shard: options.shard }),
      },
    },
    environment,
  );
  const support = await supportFor(runConfiguration, environment);
  const envelopes: Envelope[] = [];
  const startedAt = new Date().toISOString();
  const pickles = new Map<string, Pickle>();
  const selected: Pickle[] = [];
  let success: boolean;
  // Filled as Cucumber assembles the test cases, all before the first hook runs: support code
  // may prepare what the selected scenarios need.
  publishSelectedScenarios({ pickles: selected, embedded: options.target === undefined });
  try {
    ({ success } = await runCucumber({ ...runConfiguration, support }, environment, (envelope) => {
      envelopes.push(envelope);
      if (envelope.pickle) pickles.set(envelope.pickle.id, envelope.pickle);
      const pickle = envelope.testCase && pickles.get(envelope.testCase.pickleId);
      if (pickle) selected.push(pickle);
      progress?.onEnvelope(envelope);
    }));
  } finally {
    progress?.stop();
    publishSelectedScenarios({ pickles: [], embedded: false });
  }
  const finishedAt = new Date().toISOString();
  const retried = new Set(
    envelopes.flatMap((e) =>
      e.testCaseFinished?.willBeRetried ? [e.testCaseFinished.testCaseStartedId] : [],
    ),
  );
  const scenariosRun = envelopes.filter(
    (e) => e.testCaseStarted && !retried.has(e.testCaseStarted.id),
  ).length;
  const parseErrors = envelopes.flatMap((e) =>
    e.parseError ? [`${e.parseError.source.uri ?? '?'}: ${e.parseError.message}`] : [],
  );
  return {
    envelopes,
    cucumberSuccess: success,
    scenariosRun,
    parseErrors,
    stepDefinitionProblems: stepDefinitionProblems(envelopes),
    startedAt,
    finishedAt,
  };
}

/** Every step Cucumber reported UNDEFINED or AMBIGUOUS, with its text and feature file. */
export function stepDefinitionProblems(envelopes: readonly Envelope[]): string[] {
  const pickleSteps = new Map<string, { text: string; uri: string }>();
  const testSteps = new Map<string, string>();
  for (const e of envelopes) {
    if (e.pickle)
      for (const step of e.pickle.steps) pickleSteps.set(step.id, { text: step.text, uri: e.pickle.uri });
    if (e.testCase)
      for (const step of e.testCase.testSteps)
        if (step.pickleStepId) testSteps.set(step.id, step.pickleStepId);
  }
  const problems = new Set<string>();
  for (const e of envelopes) {
    const status = e.testStepFinished?.testStepResult.status;
    if (status !== 'UNDEFINED' && status !== 'AMBIGUOUS') continue;
    const step = pickleSteps.get(testSteps.get(e.testStepFinished?.testStepId ?? '') ?? '');
    problems.add(`"${step?.text ?? '?'}" (${step?.uri ?? '?'}): ${status.toLowerCase()}`);
  }
  return [...problems];
}

/** Support code libraries loaded in this process, by working directory and import paths. */
const supportLibraries = new Map<string, Promise<ISupportCodeLibrary>>();

/**
 * The step definitions and hooks, loaded once per process. Node loads an ES module once, so a
 * second load of the same step files would register nothing, and every scenario of a second run
 * (`verify --repeat`) would find its steps undefined. Parallel workers load their own from the
 * library's original coordinates.
 */
function supportFor(
  runConfiguration: Parameters<typeof loadSupport>[0],
  environment: Parameters<typeof loadSupport>[1] & { cwd: string },
): Promise<ISupportCodeLibrary> {
  const key = JSON.stringify([environment.cwd, runConfiguration.support]);
  let library = supportLibraries.get(key);
  if (!library) {
    library = loadSupport(runConfiguration, environment);
    supportLibraries.set(key, library);
    library.catch(() => supportLibraries.delete(key));
  }
  return library;
}

/**
 * Parallel workers are forked with this process's execArgv. When TypeScript support was registered
 * programmatically (bin/pbx-conformance.js) rather than by `--import tsx`, the workers would not
 * load the `.ts` steps, so tsx is preloaded for them through NODE_OPTIONS. The compiled package
 * loads `.js` steps and needs no tsx.
 */
function withTsxForWorkers(env: NodeJS.ProcessEnv, parallel: number): NodeJS.ProcessEnv {
  if (parallel <= 0 || RUNNING_COMPILED || process.execArgv.some((arg) => arg.includes('tsx'))) return env;
  const tsx = import.meta.resolve('tsx');
  const existing = env['NODE_OPTIONS'] ?? '';
  return { ...env, NODE_OPTIONS: `${existing} --import ${tsx}`.trim() };
}

function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}
