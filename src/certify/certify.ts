import { judgeCertification } from './certify-judge.ts';
import { planRuns } from './certify-plan.ts';
import { runScenario } from './certify-run.ts';
import { runExtra } from './certify-run-extra.ts';
import { runGenerated } from './certify-run-generated.ts';
import type { CertifyInput, CertifyResult, Judged } from './certify-types.ts';
import { probeSandbox } from './sandbox.ts';
import { ScenarioAddresses } from './scenario-addresses.ts';

export { localeMadeTheDifference } from './certify-judge.ts';
export { bareCommand, HELD_BACK_TIMEOUT_S, localeInstalled, TIMEOUT_PLACEHOLDER_S } from './certify-plan.ts';
export type {
  CertificationLevel,
  CertifyInput,
  CertifyResult,
  ClauseOutcome,
  Coverage,
  RunEvidence,
  RunRecord,
} from './certify-types.ts';

/**
 * Certifies one plug-in, stage by stage: plan the runs (certify-plan.ts); run them
 * (certify-run.ts: each selected catalog scenario on a fresh simulator of its own address, driven
 * in process with no control listener, every run sealed in bubblewrap where the machine permits it
 * (sandbox.ts, probed once here), else with fresh temp, home, cache and state folders; certify-run-extra.ts: `--help`,
 * `--version`, a German locale, an answer held back past `{timeout}`; certify-run-generated.ts:
 * the generated states of `--runs`); judge them (certify-judge.ts: the plain-twin comparison,
 * figure tracking over every run, one verdict per PLUGIN clause). The report stage
 * (certify-report.ts) turns the result into the one result model. Never throws for the plug-in's sake.
 */
export async function certifyPlugin(given: CertifyInput): Promise<CertifyResult> {
  const startedAt = new Date();
  // One probe per certification: every run of it is sealed alike, and the report says how.
  const input = { ...given, sandbox: given.sandbox ?? (await probeSandbox(given.env)) };
  const plan = planRuns(input);
  const addresses = new ScenarioAddresses();
  const all: Judged[] = [];
  for (const planned of plan.scenarios) {
    const base = planned.base?.();
    input.progress?.(`${planned.name} …`);
    all.push(await runScenario(input, addresses, planned.name, planned.description, planned.setup, base));
  }
  const extra = await runExtra(input, plan, addresses);
  let generated: Record<string, unknown> | undefined;
  if (plan.generatedRuns > 0) {
    input.progress?.(`generated states (${plan.generatedRuns} runs) …`);
    const outcome = await runGenerated(input, addresses);
    all.push(...outcome.runs);
    generated = outcome.summary;
  }
  return {
    ...judgeCertification(input, plan, all, extra),
    ...(generated ? { generated } : {}),
    sandbox: input.sandbox.report,
    startedAt,
    finishedAt: new Date(),
  };
}
