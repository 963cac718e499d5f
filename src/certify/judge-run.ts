import type { Expectation } from './expectations.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import {
  crashReason,
  type ParsedOutput,
  parseOutput,
  type StateName,
  stateOfExitCode,
} from './plugin-output.ts';
import type { PluginRun } from './run-plugin.ts';
import { alerts, parseRange } from './threshold-range.ts';
import { atLeastAsSevere, type WatchedState } from './watched-services.ts';

/** A clause a run broke, and how. */
export interface Finding {
  clause: PluginClauseId;
  message: string;
}

/** The output a run may print in all (PLUGIN-OUTPUT-SIZE). */
export const MAX_OUTPUT_BYTES = 512 * 1024;

export interface RunJudgement {
  state: StateName | null;
  parsed: ParsedOutput;
  findings: Finding[];
  /** The clauses this run was judged on (broken or kept). */
  judged: Set<PluginClauseId>;
}

/**
 * The clauses every run is judged on: PLUGIN-EXIT-CODE (ended by itself with 0-3),
 * PLUGIN-NO-CRASH (no trace), PLUGIN-OUTPUT-SIZE, and for a run that reported, PLUGIN-FIRST-LINE
 * and the perfdata clauses (PLUGIN-PERFDATA-GRAMMAR, PLUGIN-PERFDATA-NUMBERS,
 * PLUGIN-PERFDATA-NO-EXPONENT, PLUGIN-PERFDATA-UOM, PLUGIN-PERFDATA-UOM-BYTES,
 * PLUGIN-PERFDATA-RANGES).
 */
export function judgeRun(run: PluginRun, timeoutMs: number): RunJudgement {
  const parsed = parseOutput(run.stdout);
  const findings: Finding[] = [];
  const judged = new Set<PluginClauseId>(['PLUGIN-EXIT-CODE', 'PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);
  const state = run.timedOut ? null : stateOfExitCode(run.exitCode);
  if (run.timedOut) {
    findings.push({
      clause: 'PLUGIN-EXIT-CODE',
      message: `still running after ${timeoutMs / 1000} s: the harness killed its process group`,
    });
  } else if (run.signal) {
    findings.push({ clause: 'PLUGIN-EXIT-CODE', message: `died by signal ${run.signal}` });
  } else if (state === null) {
    findings.push({ clause: 'PLUGIN-EXIT-CODE', message: `exit code ${run.exitCode} is not 0-3` });
  }
  const crash = run.timedOut ? null : crashReason({ ...run, signal: null });
  if (crash) findings.push({ clause: 'PLUGIN-NO-CRASH', message: crash });
  if (run.outputBytes > MAX_OUTPUT_BYTES)
    findings.push({
      clause: 'PLUGIN-OUTPUT-SIZE',
      message: `${run.outputBytes} bytes of output, more than 512 KiB`,
    });
  // The output of a crashed or killed run is whatever was left; only a run that reported is held
  // to the output clauses.
  if (!run.timedOut && !crash && !run.signal) {
    for (const clause of OUTPUT_CLAUSES) judged.add(clause);
    findings.push(...parsed.problems);
    if (state !== null) {
      judged.add('PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS');
      findings.push(...judgeOwnThresholds(parsed, state));
    }
  }
  return { state, parsed, findings, judged };
}

/**
 * PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS: a value outside its own printed crit range needs a state of
 * at least CRITICAL (UNKNOWN aside), one outside its warn range a state other than OK (the full
 * range grammar of threshold-range.ts).
 */
export function judgeOwnThresholds(parsed: ParsedOutput, state: StateName): Finding[] {
  const findings: Finding[] = [];
  const clause = 'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS' as const;
  for (const item of parsed.perfdata) {
    if (item.value === 'U') continue;
    const value = Number(item.value);
    const crit = parseRange(item.crit);
    const warn = parseRange(item.warn);
    const shown = `'${item.label}'=${item.value}${item.uom}`;
    if (crit && alerts(crit, value) && state !== 'CRITICAL' && state !== 'UNKNOWN')
      findings.push({
        clause,
        message: `${shown} is outside its own crit range ${crit.text}, but the state is ${state}`,
      });
    else if (warn && alerts(warn, value) && state === 'OK')
      findings.push({
        clause,
        message: `${shown} is outside its own warn range ${warn.text}, but the state is OK`,
      });
  }
  return findings;
}

const OUTPUT_CLAUSES: readonly PluginClauseId[] = [
  'PLUGIN-FIRST-LINE',
  'PLUGIN-PERFDATA-GRAMMAR',
  'PLUGIN-PERFDATA-NUMBERS',
  'PLUGIN-PERFDATA-NO-EXPONENT',
  'PLUGIN-PERFDATA-UOM',
  'PLUGIN-PERFDATA-UOM-BYTES',
  'PLUGIN-PERFDATA-RANGES',
];

/**
 * PLUGIN-STATE-AGREES-WITH-PBX on one scenario run: the vendor's explicit expectation for the
 * scenario when there is one (state, text patterns, perfdata labels), else the PBX's own judgement
 * of the watched services (the plug-in's state at least as severe as their worst). Returns the
 * findings, or `null` when neither applies to this run.
 */
export function judgeState(
  judgement: RunJudgement,
  expectation: Expectation | undefined,
  watched: WatchedState | null,
): Finding[] | null {
  const clause = 'PLUGIN-STATE-AGREES-WITH-PBX' as const;
  const { state, parsed } = judgement;
  if (expectation) {
    const findings: Finding[] = [];
    if (state === null || !expectation.states.includes(state))
      findings.push({
        clause,
        message: `state ${state ?? 'none'}, the vendor's expectation is ${expectation.states.join(' or ')}`,
      });
    for (const pattern of expectation.text) {
      if (!pattern.test(parsed.text))
        findings.push({ clause, message: `text does not match the vendor's /${pattern.source}/` });
    }
    const labels = new Set(parsed.perfdata.map((p) => p.label));
    for (const label of expectation.perfdata) {
      if (!labels.has(label))
        findings.push({ clause, message: `perfdata label '${label}' the vendor expects is missing` });
    }
    return findings;
  }
  if (!watched) return null;
  if (state !== null && atLeastAsSevere(state, watched.worst)) return [];
  const worst = watched.services.filter((s) => s.state === watched.worst).map((s) => `'${s.name}'`);
  return [
    {
      clause,
      message: `state ${state ?? 'none'}, but the PBX gives ${worst.join(', ')} ${watched.worst}`,
    },
  ];
}

/**
 * PLUGIN-STATE-EQUALS-PBX on one scenario run: the plug-in's state equals the worst state the PBX
 * gives the services watched with `agree: exact`, neither milder nor more severe.
 */
export function judgeStateEquals(state: StateName | null, watched: WatchedState): Finding[] {
  if (state === watched.worst) return [];
  const worst = watched.services.filter((s) => s.state === watched.worst).map((s) => `'${s.name}'`);
  const how = state !== null && atLeastAsSevere(state, watched.worst) ? 'more severe than' : 'not';
  return [
    {
      clause: 'PLUGIN-STATE-EQUALS-PBX',
      message: `state ${state ?? 'none'}, ${how} the PBX's ${watched.worst} for ${worst.join(', ')} (agree: exact)`,
    },
  ];
}

/**
 * Whether two perfdata values printed by two runs of the same state are the same reading
 * (PLUGIN-LOCALE-INDEPENDENT): both `U`, or two numbers apart by no more than half a unit of the
 * finer one's last printed digit plus 0.1 %. A value the plug-in derives from its own clock (a backup's age in
 * seconds) moves by a second between two runs; a locale that changes the number (`7.200` read as
 * 7.2, a decimal part cut off) does not get through.
 */
export function sameReading(a: string, b: string): boolean {
  if (a === 'U' || b === 'U') return a === b;
  const x = Number(a);
  const y = Number(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return a === b;
  const half = (text: string) => 0.5 * 10 ** -(/\.(\d*)$/.exec(text)?.[1]?.length ?? 0);
  return Math.abs(x - y) <= Math.min(half(a), half(b)) + 0.001 * Math.max(Math.abs(x), Math.abs(y));
}
