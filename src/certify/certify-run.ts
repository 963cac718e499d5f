import { TIMEOUT_PLACEHOLDER_S } from './certify-plan.ts';
import { addStage, type CertifyInput, type Judged, type RunEvidence } from './certify-types.ts';
import { displayCommand, fillPlaceholders, type PlaceholderValues, redactSecrets } from './command-line.ts';
import type { Expectation } from './expectations.ts';
import { isolatedRun as sealedRun } from './isolated-env.ts';
import { judgeRun, judgeState, judgeStateEquals, type RunJudgement } from './judge-run.ts';
import { type OpenScenario, openScenario, type ScenarioBase } from './open-scenario.ts';
import type { StateName } from './plugin-output.ts';
import type { PluginRun } from './run-plugin.ts';
import { probeSandbox } from './sandbox.ts';
import type { ScenarioAddresses } from './scenario-addresses.ts';
import type { ScenarioSetup } from './scenario-catalog.ts';
import { catalogReadings } from './served-catalog.ts';
import { agentFigures, type Figures, jsonFigures, servedData } from './served-figures.ts';
import { localServices, watchedState } from './watched-services.ts';

/**
 * The run stage of a certification: one run of the plug-in on a scenario's fresh simulator, with
 * fresh temp, home, cache and state folders, judged on the clauses of a single run (judge-run.ts).
 * Never throws for the plug-in's sake: a scenario the harness cannot set up is a harness problem.
 */
export async function runScenario(
  input: CertifyInput,
  addresses: ScenarioAddresses,
  name: string,
  description: string,
  setup: ScenarioSetup,
  base?: ScenarioBase,
): Promise<Judged> {
  const expectation = input.expectations?.scenarios.get(name);
  try {
    return await runOnScenario(input, await addresses.take(), name, description, setup, base, expectation);
  } catch (error) {
    return {
      record: {
        run: name,
        description,
        expected: expectation !== undefined,
        evidence: null,
        harnessProblem: `the harness could not set up the scenario: ${oneLine(error)}`,
        judged: new Set(),
        findings: [],
      },
      judgement: null,
      tracked: null,
    };
  }
}

/** One run on a scenario opened at `host`; throws when the harness cannot set the scenario up. */
export async function runOnScenario(
  input: CertifyInput,
  host: string,
  name: string,
  description: string,
  setup: ScenarioSetup,
  base: ScenarioBase | undefined,
  expectation: Expectation | undefined,
): Promise<Judged> {
  let started = performance.now();
  const opened: OpenScenario = await openScenario(setup, base, host);
  addStage(input.stages, 'pbxStartMs', started);
  try {
    const values = { ...opened.values, timeout: String(TIMEOUT_PLACEHOLDER_S) };
    const { run, notes } = await isolatedRun(input, fillPlaceholders(input.argv, values), input.timeoutMs);
    started = performance.now();
    const served = await opened.servedText();
    const json = servedData(served) ? await opened.servedJson() : null;
    const judgement = judgeRun(run, input.timeoutMs);
    const findings = [...judgement.findings];
    const judged = new Set(judgement.judged);
    const watches = input.expectations?.watches ?? [];
    const watched =
      served !== null && watches.length > 0
        ? watchedState(
            served,
            watches.map((w) => w.pattern),
          )
        : null;
    const state = judgeState(judgement, expectation, watched);
    if (state) {
      judged.add('PLUGIN-STATE-AGREES-WITH-PBX');
      findings.push(...state);
    }
    const exact = watches.filter((w) => w.agree === 'exact').map((w) => w.pattern);
    const exactly = served !== null && exact.length > 0 ? watchedState(served, exact) : null;
    if (exactly && !expectation && !run.timedOut) {
      judged.add('PLUGIN-STATE-EQUALS-PBX');
      findings.push(...judgeStateEquals(judgement.state, exactly));
    }
    const figures: Figures | null = servedData(served)
      ? new Map([...agentFigures(served as string), ...(json === null ? [] : jsonFigures(json))])
      : null;
    addStage(input.stages, 'judgingMs', started);
    return {
      record: {
        run: name,
        description,
        expected: expectation !== undefined,
        evidence: evidenceOf(input.argv, values, run, judgement.state, { ...opened.notes, ...notes }, served),
        judged,
        findings,
      },
      judgement,
      tracked: run.timedOut ? null : { run: name, figures, values: numericValues(judgement) },
      served: {
        answer:
          setup.kind === 'sections-missing'
            ? 'sections-missing'
            : served === null
              ? 'refused'
              : served.trim() === ''
                ? 'empty'
                : servedData(served)
                  ? 'data'
                  : 'error',
        readings: catalogReadings(served, json),
        matchedWatches: watched?.matched ?? [],
        watchedServices: watched?.services.map((w) => w.name) ?? [],
        services: served === null ? [] : localServices(served),
      },
    };
  } finally {
    await opened.close();
  }
}

/**
 * Runs the plug-in once in a cleared environment with folders of its own: sealed in the
 * certification's sandbox (isolated-env.ts, sandbox.ts; issue 28 §4), else with fresh host folders,
 * removed afterwards. `extraEnv`: the run's own variables (a locale), kept through the clearing.
 */
export async function isolatedRun(
  input: CertifyInput,
  argv: string[],
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ run: PluginRun; notes: Record<string, unknown> }> {
  const sandbox = input.sandbox ?? (await probeSandbox(input.env));
  const started = performance.now();
  try {
    return await sealedRun({ argv, cwd: input.cwd, env: { ...input.env, ...extraEnv }, timeoutMs, sandbox });
  } finally {
    addStage(input.stages, 'pluginRunMs', started);
  }
}

function numericValues(judgement: RunJudgement): Map<string, string> {
  const values = new Map<string, string>();
  for (const item of judgement.parsed.perfdata) if (item.value !== 'U') values.set(item.label, item.value);
  return values;
}

/** A run's evidence: the command as shown, what it printed (secrets redacted), the served text. */
export function evidenceOf(
  argv: string[],
  values: PlaceholderValues,
  run: PluginRun,
  state: StateName | null,
  notes: Record<string, unknown>,
  servedText?: string | null,
): RunEvidence {
  return {
    command: displayCommand(argv, values),
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: redactSecrets(run.stdout, values),
    stderr: redactSecrets(run.stderr, values),
    state,
    ...(servedText === undefined
      ? {}
      : { servedText: servedText === null ? null : redactSecrets(servedText, values) }),
    notes,
  };
}

/** The placeholder values of a run with no PBX (`--help`, `--version`). */
export function noPbxValues(): PlaceholderValues {
  return {
    host: '',
    port: '',
    web: '',
    xmlrpc: '',
    login: '',
    auth: '',
    timeout: String(TIMEOUT_PLACEHOLDER_S),
  };
}

export function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
}
