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
import type { CertifyInput, Judged } from './certify-types.ts';
import { fillPlaceholders, redactSecrets } from './command-line.ts';
import { judgeRun } from './judge-run.ts';
import { openScenario } from './open-scenario.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { ScenarioAddresses } from './scenario-addresses.ts';

/**
 * The run stage's extra runs, made as the plan says: `--help` and `--version`
 * (PLUGIN-HELP-VERSION), `healthy` under a German locale (PLUGIN-LOCALE-INDEPENDENT), and an
 * answer held back past `{timeout}` (PLUGIN-OWN-TIMEOUT).
 */
export async function runExtra(
  input: CertifyInput,
  plan: CertifyPlan,
  addresses: ScenarioAddresses,
): Promise<Judged[]> {
  const extra: Judged[] = [];
  if (plan.extra.helpAndVersion) {
    input.progress?.('--help and --version …');
    extra.push(...(await helpAndVersion(input)));
    input.progress?.(`healthy under LC_ALL=C and LC_ALL=${GERMAN_LOCALE} …`);
  }
  if (plan.extra.locale) extra.push(await localeRun(input, addresses));
  if (plan.extra.heldBack) {
    input.progress?.(`answer held back past {timeout} = ${HELD_BACK_TIMEOUT_S} s …`);
    extra.push(await heldBackRun(input, addresses));
  }
  return extra;
}

/** PLUGIN-HELP-VERSION: `--help` and `--version` each print text and exit 3. */
async function helpAndVersion(input: CertifyInput): Promise<Judged[]> {
  const out: Judged[] = [];
  for (const option of ['--help', '--version']) {
    const argv = [...bareCommand(input.argv), option];
    const values = noPbxValues();
    const { run, notes } = await isolatedRun(input, argv, Math.min(input.timeoutMs, 10_000));
    const judgement = judgeRun(run, Math.min(input.timeoutMs, 10_000));
    const judged = new Set<PluginClauseId>(['PLUGIN-HELP-VERSION', 'PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);
    out.push({
      record: {
        run: option,
        description: `The plug-in asked for its ${option.slice(2)} text: it prints it and exits 3.`,
        expected: false,
        evidence: evidenceOf(argv, values, run, judgement.state, notes),
        judged,
        findings: judgeHelpVersion(run, judgement),
      },
      judgement,
      tracked: null,
    });
  }
  return out;
}

/**
 * PLUGIN-LOCALE-INDEPENDENT: `healthy` run twice on one simulator, under `LC_ALL=C` and under
 * `LC_ALL=de_DE.UTF-8` (the plan makes this run only where the locale is installed).
 */
async function localeRun(input: CertifyInput, addresses: ScenarioAddresses): Promise<Judged> {
  const opened = await openScenario(
    { kind: 'named', scenario: 'healthy' },
    undefined,
    await addresses.take(),
  );
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
  const opened = await openScenario({ kind: 'named', scenario: 'healthy' }, undefined, host);
  const proxy = new AnswerProxy({
    upstream: { host: opened.values.host, port: Number(opened.values.port) },
    host,
    delayMs: HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS,
  });
  try {
    const address = await proxy.start();
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
