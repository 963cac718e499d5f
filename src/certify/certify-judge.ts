import type { ClauseLevel } from '../catalog/catalog.ts';
import {
  judgeDeclared,
  judgeNotOkWithoutData,
  judgeSentinels,
  judgeUndeclaredUnits,
} from './certify-judge-figures.ts';
import {
  coverageOf,
  duplicateLabels,
  levelOf,
  notCertified,
  printedLabels,
  unmatchedWatches,
} from './certify-judge-level.ts';
import type { CertifyPlan } from './certify-plan.ts';
import { GERMAN_LOCALE, HELD_BACK_TIMEOUT_S } from './certify-plan.ts';
import type { CertifyInput, CertifyResult, ClauseOutcome, Judged, RunRecord } from './certify-types.ts';
import { trackFigures } from './figure-tracking.ts';
import { type Finding, type RunJudgement, sameReading } from './judge-run.ts';
import { PLUGIN_CLAUSES, type PluginClauseId } from './plugin-clauses.ts';
import type { PluginRun } from './run-plugin.ts';
import type { CatalogScenario } from './scenario-catalog.ts';

/**
 * The judge stage of a certification: the clauses that span runs (the plain twin, the healthy
 * run, figure tracking over every run), the extra runs' own clauses, and one verdict per PLUGIN
 * clause over every run.
 */

/**
 * The rules every run of an extra run is held to as well (PLUGIN-NO-CRASH, PLUGIN-OUTPUT-SIZE):
 * a plug-in that crashes only when its source is slow, or only under another locale, still crashed.
 */
export const EVERY_RUN: ReadonlySet<PluginClauseId> = new Set(['PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);

/** What the judge stage adds to the runs. */
export type Judgement = Omit<CertifyResult, 'generated' | 'startedAt' | 'finishedAt' | 'sandbox'>;

/**
 * Judges the runs of a certification as a whole: `all` are the scenario and generated runs (in
 * figure tracking and the figure rules), `extra` the extra runs of the clauses that need them.
 */
export function judgeCertification(
  input: Pick<CertifyInput, 'scenarios' | 'expectations' | 'argv'> & {
    levels: ReadonlyMap<string, ClauseLevel>;
  },
  plan: CertifyPlan,
  all: Judged[],
  extra: Judged[],
): Judgement {
  const { expectations } = input;
  const notVerifiable = new Map(plan.notVerifiable);
  compareTwins(input.scenarios, all);
  judgeKnownWhenServed(all);
  const tracking = trackFigures(all.flatMap((j) => (j.tracked ? [j.tracked] : [])));
  const declared = new Set(expectations?.measures.keys() ?? []);
  judgeDeclared(all, expectations);
  judgeSentinels(all, declared);
  judgeUndeclaredUnits(all, declared);
  const readsEndpoint = input.argv.some((word) => word.includes('{port}'));
  const readsSections =
    declared.size > 0 ||
    (expectations?.watches.length ?? 0) > 0 ||
    tracking.some((t) => t.kind === 'follows' && t.figures.some((f) => f.includes('agent <<<')));
  if (!judgeNotOkWithoutData(all, readsEndpoint, readsSections))
    notVerifiable.set(
      'PLUGIN-NOT-OK-WITHOUT-DATA',
      readsEndpoint
        ? 'no run without data was made (endpoint-down, host-unlisted, unlicensed, render-error, sections-missing)'
        : 'the plug-in command has no {port} placeholder: it does not read the data endpoint, whose runs without data these are',
    );
  for (const label of tracking) {
    if (label.kind !== 'broken') continue;
    const record = all.find((j) => j.record.run === label.evidence.run)?.record;
    record?.findings.push({ clause: 'PLUGIN-FIGURES-FOLLOW-SERVED', message: label.message });
  }
  if (!all.some((j) => j.tracked))
    notVerifiable.set('PLUGIN-FIGURES-FOLLOW-SERVED', 'no run could be compared with what the PBX served');
  const runs = [...all, ...extra].map((j) => j.record);
  for (const j of all) if (j.tracked) j.record.judged.add('PLUGIN-FIGURES-FOLLOW-SERVED');
  const labels = printedLabels(all);
  return {
    runs,
    clauses: clauseOutcomes(runs, input.levels, notVerifiable),
    tracking,
    level: levelOf(expectations, labels),
    coverage: coverageOf(expectations, labels, tracking, all),
    notCertified: notCertified(expectations, labels, tracking),
    warnings: duplicateLabels(expectations, tracking, all),
    usageProblems: unmatchedWatches(expectations, all),
  };
}

/**
 * PLUGIN-IGNORES-UNKNOWN: a scenario with a plain twin (the `extension` scenario and `healthy`)
 * must give the twin's state.
 */
function compareTwins(scenarios: CatalogScenario[], all: Judged[]): void {
  for (const scenario of scenarios) {
    if (!scenario.twin) continue;
    const own = all.find((j) => j.record.run === scenario.name);
    const twin = all.find((j) => j.record.run === scenario.twin);
    if (!own?.judgement || !twin?.judgement || own.record.evidence?.timedOut) continue;
    own.record.judged.add('PLUGIN-IGNORES-UNKNOWN');
    if (own.judgement.state !== twin.judgement.state)
      own.record.findings.push({
        clause: 'PLUGIN-IGNORES-UNKNOWN',
        message: `state ${own.judgement.state ?? 'none'} differs from the plain twin ${scenario.twin} (${twin.judgement.state ?? 'none'}): unknown entries must be ignored`,
      });
  }
}

/** PLUGIN-KNOWN-WHEN-SERVED: against `healthy` (every section, known values) the state is not UNKNOWN. */
function judgeKnownWhenServed(all: Judged[]): void {
  const healthy = all.find((j) => j.record.run === 'healthy');
  if (!healthy?.judgement || healthy.record.evidence?.timedOut) return;
  healthy.record.judged.add('PLUGIN-KNOWN-WHEN-SERVED');
  if (healthy.judgement.state === 'UNKNOWN' || healthy.judgement.state === null)
    healthy.record.findings.push({
      clause: 'PLUGIN-KNOWN-WHEN-SERVED',
      message: `state ${healthy.judgement.state ?? 'none'} against a PBX that serves every section with known values`,
    });
}

/** PLUGIN-HELP-VERSION: `--help` and `--version` each print text and exit 3. */
export function judgeHelpVersion(run: PluginRun, judgement: RunJudgement): Finding[] {
  const findings = judgement.findings.filter(
    (f) => f.clause === 'PLUGIN-NO-CRASH' || f.clause === 'PLUGIN-OUTPUT-SIZE',
  );
  if (run.timedOut)
    findings.push({ clause: 'PLUGIN-HELP-VERSION', message: 'still running after the limit' });
  else {
    if (run.exitCode !== 3)
      findings.push({
        clause: 'PLUGIN-HELP-VERSION',
        message: `exit code ${run.exitCode ?? run.signal}, not 3`,
      });
    if (run.stdout.trim() === '')
      findings.push({ clause: 'PLUGIN-HELP-VERSION', message: 'printed nothing on stdout' });
  }
  return findings;
}

/**
 * PLUGIN-LOCALE-INDEPENDENT: `healthy` under `LC_ALL=C` and under `LC_ALL=de_DE.UTF-8`; the
 * perfdata numbers must be the same, with `.` as decimal point.
 */
export function judgeLocale(judgedC: RunJudgement, judgedDe: RunJudgement): Finding[] {
  // Both runs are runs of the plug-in: a trace or oversized output in either breaks its rule.
  const findings: Finding[] = [
    ...judgedC.findings.map((f) => ({ ...f, message: `under LC_ALL=C: ${f.message}` })),
    ...judgedDe.findings.map((f) => ({ ...f, message: `under LC_ALL=${GERMAN_LOCALE}: ${f.message}` })),
  ].filter((f) => EVERY_RUN.has(f.clause));
  const inC = new Map(judgedC.parsed.perfdata.map((p) => [p.label, p]));
  for (const p of judgedDe.parsed.perfdata) {
    const c = inC.get(p.label);
    if (c === undefined) continue;
    const other = `${c.value}${c.uom}`;
    if (other !== `${p.value}${p.uom}` && localeMadeTheDifference(c, p))
      findings.push({
        clause: 'PLUGIN-LOCALE-INDEPENDENT',
        message: `'${p.label}' is ${p.value}${p.uom} under LC_ALL=${GERMAN_LOCALE}, ${other} under LC_ALL=C`,
      });
  }
  for (const problem of judgedDe.parsed.problems)
    if (problem.clause === 'PLUGIN-PERFDATA-NUMBERS')
      findings.push({
        clause: 'PLUGIN-LOCALE-INDEPENDENT',
        message: `under LC_ALL=${GERMAN_LOCALE}: ${problem.message}`,
      });
  if (judgedDe.parsed.perfdata.length < judgedC.parsed.perfdata.length && findings.length === 0)
    findings.push({
      clause: 'PLUGIN-LOCALE-INDEPENDENT',
      message: `${judgedC.parsed.perfdata.length} perfdata items under LC_ALL=C, ${judgedDe.parsed.perfdata.length} readable under LC_ALL=${GERMAN_LOCALE}`,
    });
  return findings;
}

/**
 * Whether the locale explains why a perfdata value differs between the `LC_ALL=C` and the German
 * run: the same digits with other separators (`1234` and `1.234`), another unit, or any change of
 * a figure that is not a duration and not the same reading (`sameReading`: 7200 and 7201 seconds). A duration (`s`, `ms`, `us`) with other digits is the plug-in's
 * own measurement, which differs from run to run whatever the locale (check_tcp's `time=`): no
 * evidence against it (PLUGIN-LOCALE-INDEPENDENT).
 */
export function localeMadeTheDifference(
  c: { value: string; uom: string },
  de: { value: string; uom: string },
): boolean {
  if (c.uom !== de.uom) return true;
  // A reading that moved a hair (a value from the plug-in's own clock) is no locale at work.
  if (sameReading(c.value, de.value)) return false;
  // The German locale groups thousands with `.` (a decimal comma is no number at all, caught apart).
  if (c.value.replace(/\./g, '') === de.value.replace(/\./g, '')) return true;
  return !['s', 'ms', 'us'].includes(c.uom);
}

/**
 * PLUGIN-OWN-TIMEOUT: with its source held back past `{timeout}`, the plug-in must end by itself,
 * UNKNOWN, with a message, before the harness ends it (`limitMs` after start).
 */
export function judgeHeldBack(run: PluginRun, judgement: RunJudgement, limitMs: number): Finding[] {
  const findings: Finding[] = judgement.findings.filter((f) => EVERY_RUN.has(f.clause));
  if (run.timedOut)
    findings.push({
      clause: 'PLUGIN-OWN-TIMEOUT',
      message: `still running ${limitMs / 1000} s after start with {timeout} = ${HELD_BACK_TIMEOUT_S} s: it does not bound its own run time`,
    });
  else if (judgement.state !== 'UNKNOWN')
    findings.push({
      clause: 'PLUGIN-OWN-TIMEOUT',
      message: `state ${judgement.state ?? `exit ${run.exitCode ?? run.signal}`} when its source did not answer within {timeout}; expected UNKNOWN`,
    });
  else if (judgement.parsed.firstLine.trim() === '')
    findings.push({ clause: 'PLUGIN-OWN-TIMEOUT', message: 'ended UNKNOWN without a message' });
  return findings;
}

/**
 * One verdict per PLUGIN clause over every run: broken in some run → `fail` for a `must` rule,
 * `warn` for a `should` rule, its findings the worst run's first; judged and never broken →
 * `pass`; judged on no run → `not-verifiable`, with the reason.
 */
function clauseOutcomes(
  runs: readonly RunRecord[],
  levels: ReadonlyMap<string, ClauseLevel>,
  notVerifiable: ReadonlyMap<PluginClauseId, string>,
): ClauseOutcome[] {
  return (Object.keys(PLUGIN_CLAUSES) as PluginClauseId[]).map((id): ClauseOutcome => {
    const level = levels.get(id) ?? 'must';
    const judgedOn = runs.filter((r) => r.judged.has(id)).map((r) => r.run);
    const findings = runs.flatMap((r) =>
      r.findings.filter((f) => f.clause === id).map((f) => ({ run: r.run, message: f.message })),
    );
    if (findings.length > 0)
      return { id, level, verdict: level === 'must' ? 'fail' : 'warn', runs: judgedOn, findings };
    if (judgedOn.length === 0) {
      const harness = runs.find((r) => r.harnessProblem)?.harnessProblem;
      return {
        id,
        level,
        verdict: 'not-verifiable',
        reason: notVerifiable.get(id) ?? harness ?? `no run judged it (${PLUGIN_CLAUSES[id]} did not run)`,
        runs: [],
        findings: [],
      };
    }
    const reason = notVerifiable.get(id);
    if (reason && id !== 'PLUGIN-STATE-AGREES-WITH-PBX')
      return { id, level, verdict: 'not-verifiable', reason, runs: judgedOn, findings: [] };
    return { id, level, verdict: 'pass', runs: judgedOn, findings: [] };
  });
}
