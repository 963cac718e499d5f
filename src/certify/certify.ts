import { judgeCertification } from './certify-judge.ts';
import { planRuns } from './certify-plan.ts';
import { runScenario } from './certify-run.ts';
import { runExtra } from './certify-run-extra.ts';
import { runGenerated } from './certify-run-generated.ts';
import { addStage, type CertifyInput, type CertifyResult } from './certify-types.ts';
import { PLUGIN_RUN_SLOTS } from './run-slots.ts';
import { probeSandbox } from './sandbox.ts';
import { ScenarioAddresses } from './scenario-addresses.ts';
import type { ScenarioSetup } from './scenario-catalog.ts';

export { localeMadeTheDifference } from './certify-judge.ts';
export { bareCommand, HELD_BACK_TIMEOUT_S, localeInstalled, TIMEOUT_PLACEHOLDER_S } from './certify-plan.ts';
export type {
  CertificationLevel,
  CertifyInput,
  CertifyResult,
  ClauseOutcome,
  Coverage,
  ExtraRunClause,
  RunEvidence,
  RunRecord,
  StageTimes,
} from './certify-types.ts';
export { EXTRA_RUN_CLAUSES } from './certify-types.ts';
export { PLUGIN_RUN_SLOTS, RunSlots } from './run-slots.ts';

/**
 * Certifies one plug-in, stage by stage: plan the runs (certify-plan.ts); run them
 * (certify-run.ts: each selected catalog scenario on a fresh simulator of its own address, driven
 * in process with no control listener, every run sealed in bubblewrap where the machine permits it
 * (sandbox.ts, probed once here), else with fresh temp, home, cache and state folders; certify-run-extra.ts: `--help`,
 * `--version`, a German locale, an answer held back past `{timeout}`; certify-run-generated.ts:
 * the generated states of `--runs`); judge them (certify-judge.ts: the plain-twin comparison,
 * figure tracking over every run, one verdict per PLUGIN clause). The report stage
 * (certify-report.ts) turns the result into the one result model. Never throws for the plug-in's sake.
 *
 * The runs are independent of one another (each its own simulator, address and sealed folders), so
 * they go at once as far as the run slots let them (run-slots.ts: two at a time, shared by every
 * certification of the process); the runs that wait on purpose (slow-answer, the held-back answer)
 * start first and take no slot. The results keep the plan's order, whatever order the runs end in.
 */
export async function certifyPlugin(given: CertifyInput): Promise<CertifyResult> {
  const startedAt = new Date();
  // One probe per certification: every run of it is sealed alike, and the report says how.
  const input = { ...given, sandbox: given.sandbox ?? (await probeSandbox(given.env)) };
  const slots = input.slots ?? PLUGIN_RUN_SLOTS;
  const plan = planRuns(input);
  const addresses = new ScenarioAddresses();
  const scenarioRuns = plan.scenarios.map((planned) => {
    const run = () => {
      input.progress?.(`${planned.name} …`);
      return runScenario(
        input,
        addresses,
        planned.name,
        planned.description,
        planned.setup,
        planned.base?.(),
      );
    };
    return waitsOnPurpose(planned.setup) ? run() : slots.run(run);
  });
  const extraRuns = runExtra(input, plan, addresses, slots);
  if (plan.generatedRuns > 0) input.progress?.(`generated states (${plan.generatedRuns} runs) …`);
  const generatedRuns = plan.generatedRuns > 0 ? runGenerated(input, addresses, slots) : undefined;
  const [all, extra, outcome] = await settleAll(Promise.all(scenarioRuns), extraRuns, generatedRuns);
  if (outcome) all.push(...outcome.runs);
  const levels = await input.levels;
  const judging = performance.now();
  const judged = judgeCertification({ ...input, levels }, plan, all, extra);
  addStage(input.stages, 'judgingMs', judging);
  return {
    ...judged,
    ...(outcome ? { generated: outcome.summary } : {}),
    sandbox: input.sandbox.report,
    startedAt,
    finishedAt: new Date(),
  };
}

/** A run whose time is a wait the scenario makes on purpose (the slow answer): it takes no run slot. */
function waitsOnPurpose(setup: ScenarioSetup): boolean {
  return setup.kind === 'slow-answer';
}

/**
 * Waits for every stage's runs, also when one of them fails (none is left running behind the
 * certification), then rejects with the first failure.
 */
async function settleAll<A, B, C>(
  a: Promise<A>,
  b: Promise<B>,
  c: Promise<C> | undefined,
): Promise<[A, B, C | undefined]> {
  const settled = await Promise.allSettled([a, b, c ?? Promise.resolve(undefined)]);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  const [x, y, z] = settled as [
    PromiseFulfilledResult<A>,
    PromiseFulfilledResult<B>,
    PromiseFulfilledResult<C | undefined>,
  ];
  return [x.value, y.value, z.value];
}
