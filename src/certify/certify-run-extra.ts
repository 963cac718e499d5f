import { AnswerProxy } from './answer-proxy.ts';
import { EVERY_RUN, judgeHeldBack, judgeHelpVersion, judgeLocale } from './certify-judge.ts';
import {
  bareCommand,
  type CertifyPlan,
  GERMAN_LOCALE,
  HELD_BACK_EXTRA_MS,
  HELD_BACK_GRACE_MS,
  HELD_BACK_TIMEOUT_S,
  TIMEOUT_PLACEHOLDER_S,
} from './certify-plan.ts';
import { evidenceOf, isolatedRun, noPbxValues } from './certify-run.ts';
import { addStage, type CertifyInput, type Judged } from './certify-types.ts';
import { fillPlaceholders, redactSecrets } from './command-line.ts';
import { judgeRun } from './judge-run.ts';
import { openScenario } from './open-scenario.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { RunSlots } from './run-slots.ts';
import type { ScenarioAddresses } from './scenario-addresses.ts';

/**
 * The run stage's extra runs, made as the plan says: `--help` and `--version`
 * (PLUGIN-HELP-VERSION), `healthy` under a German locale (PLUGIN-LOCALE-INDEPENDENT), and an
 * answer held back past `{timeout}` (PLUGIN-OWN-TIMEOUT). The held-back run waits on purpose and
 * takes no slot: it starts at once and overlaps the others; each other run takes its turn for a
 * slot. In that order in the result, whatever order they end in.
 */
export async function runExtra(
  input: CertifyInput,
  plan: CertifyPlan,
  addresses: ScenarioAddresses,
  slots: RunSlots,
): Promise<Judged[]> {
  if (plan.extra.heldBack) input.progress?.(`answer held back past {timeout} = ${HELD_BACK_TIMEOUT_S} s …`);
  const heldBack = plan.extra.heldBack ? heldBackRun(input, addresses) : undefined;
  const runs: Promise<Judged>[] = [];
  if (plan.extra.helpAndVersion) {
    input.progress?.('--help and --version …');
    for (const option of ['--help', '--version'] as const)
      runs.push(slots.run(() => helpOrVersion(input, option)));
  }
  if (plan.extra.locale) {
    input.progress?.(`healthy under LC_ALL=C and LC_ALL=${GERMAN_LOCALE} …`);
    runs.push(slots.run(() => localeRun(input, addresses)));
  }
  if (heldBack) runs.push(heldBack);
  const settled = await Promise.allSettled(runs);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<Judged>).value);
}

/** PLUGIN-HELP-VERSION: `--help` and `--version` each print text and exit 3. */
async function helpOrVersion(input: CertifyInput, option: '--help' | '--version'): Promise<Judged> {
  const argv = [...bareCommand(input.argv), option];
  const values = noPbxValues();
  const { run, notes } = await isolatedRun(input, argv, Math.min(input.timeoutMs, 10_000));
  const started = performance.now();
  const judgement = judgeRun(run, Math.min(input.timeoutMs, 10_000));
  const judged = new Set<PluginClauseId>(['PLUGIN-HELP-VERSION', 'PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);
  const findings = judgeHelpVersion(run, judgement);
  addStage(input.stages, 'judgingMs', started);
  return {
    record: {
      run: option,
      description: `The plug-in asked for its ${option.slice(2)} text: it prints it and exits 3.`,
      expected: false,
      evidence: evidenceOf(argv, values, run, judgement.state, notes),
      judged,
      findings,
    },
    judgement,
    tracked: null,
  };
}

/**
 * PLUGIN-LOCALE-INDEPENDENT: `healthy` run twice on one simulator, under `LC_ALL=C` and under
 * `LC_ALL=de_DE.UTF-8` (the plan makes this run only where the locale is installed).
 */
async function localeRun(input: CertifyInput, addresses: ScenarioAddresses): Promise<Judged> {
  const address = await addresses.take();
  const started = performance.now();
  const opened = await openScenario({ kind: 'named', scenario: 'healthy' }, undefined, address);
  addStage(input.stages, 'pbxStartMs', started);
  try {
    const values = { ...opened.values, timeout: String(TIMEOUT_PLACEHOLDER_S) };
    const argv = fillPlaceholders(input.argv, values);
    const c = await isolatedRun(input, argv, input.timeoutMs, { LC_ALL: 'C', LANG: 'C' });
    const de = await isolatedRun(input, argv, input.timeoutMs, {
      LC_ALL: GERMAN_LOCALE,
      LANG: GERMAN_LOCALE,
    });
    const judgedC = judgeRun(c.run, input.timeoutMs);
    const judgedDe = judgeRun(de.run, input.timeoutMs);
    return {
      record: {
        run: `healthy (LC_ALL=${GERMAN_LOCALE})`,
        description: `healthy under LC_ALL=${GERMAN_LOCALE}, compared with the same run under LC_ALL=C.`,
        expected: false,
        evidence: evidenceOf(input.argv, values, de.run, judgedDe.state, {
          ...de.notes,
          locale: GERMAN_LOCALE,
          stdoutUnderC: redactSecrets(c.run.stdout, values),
        }),
        judged: new Set(['PLUGIN-LOCALE-INDEPENDENT', ...EVERY_RUN]),
        findings: judgeLocale(judgedC, judgedDe),
      },
      judgement: judgedDe,
      tracked: null,
    };
  } finally {
    await opened.close();
  }
}

/**
 * PLUGIN-OWN-TIMEOUT: `healthy` behind a proxy that holds the answer back past the plug-in's own
 * timeout (`{timeout}` = 3 s, the answer after 9 s); the harness ends it 4 s after its own timeout.
 */
async function heldBackRun(input: CertifyInput, addresses: ScenarioAddresses): Promise<Judged> {
  const host = await addresses.take();
  const started = performance.now();
  const opened = await openScenario({ kind: 'named', scenario: 'healthy' }, undefined, host);
  const proxy = new AnswerProxy({
    upstream: { host: opened.values.host, port: Number(opened.values.port) },
    host,
    delayMs: HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS,
  });
  try {
    const address = await proxy.start();
    addStage(input.stages, 'pbxStartMs', started);
    const values = { ...opened.values, port: String(address.port), timeout: String(HELD_BACK_TIMEOUT_S) };
    const limit = HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_GRACE_MS;
    const { run, notes } = await isolatedRun(input, fillPlaceholders(input.argv, values), limit);
    const judgement = judgeRun(run, limit);
    return {
      record: {
        run: 'held-back answer',
        description: `healthy, but the answer is held back ${(HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS) / 1000} s while {timeout} is ${HELD_BACK_TIMEOUT_S} s.`,
        expected: false,
        evidence: evidenceOf(input.argv, values, run, judgement.state, {
          ...notes,
          proxy: `holds the answer back ${HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS} ms`,
        }),
        judged: new Set(['PLUGIN-OWN-TIMEOUT', ...EVERY_RUN]),
        findings: judgeHeldBack(run, judgement, limit),
      },
      judgement,
      tracked: null,
    };
  } finally {
    await proxy.close();
    await opened.close();
  }
}
