import type { Expectation } from './expectations.ts';
import {
  crashReason,
  type ParsedOutput,
  parseOutput,
  type StateName,
  stateOfExitCode,
} from './plugin-output.ts';
import type { PluginRun } from './run-plugin.ts';

/** The checks of one run: the built-in ones and the vendor's expectation. */
export interface RunCheck {
  state: StateName | null;
  parsed: ParsedOutput;
  /** The built-in checks that failed (crash, hang, exit code, grammar): they apply to every run. */
  builtIn: string[];
  /** The vendor's expectations that did not hold. */
  expectation: string[];
}

/**
 * Checks a run against the monitoring-plugin convention (every run: exit code 0–3, no crash, no
 * timeout, first line and perfdata in the grammar) and, when given, the vendor's expectation.
 */
export function checkRun(run: PluginRun, expectation: Expectation | undefined, timeoutMs: number): RunCheck {
  const parsed = parseOutput(run.stdout);
  const builtIn: string[] = [];
  const state = run.timedOut ? null : stateOfExitCode(run.exitCode);
  if (run.timedOut) {
    builtIn.push(`timeout: still running after ${timeoutMs / 1000} s (its process group was killed)`);
  } else {
    const crash = crashReason(run);
    if (crash) builtIn.push(`crash: ${crash}`);
    else {
      if (state === null) builtIn.push(`exit code ${run.exitCode} is not 0-3`);
      // The output of a crashed run is whatever was left; only a run that reported is held to the grammar.
      for (const problem of parsed.problems) builtIn.push(`output grammar: ${problem}`);
    }
  }
  const unmet: string[] = [];
  if (expectation && !run.timedOut) {
    if (state === null || !expectation.states.includes(state))
      unmet.push(
        `state ${state ?? `exit ${run.exitCode ?? run.signal}`}, expected ${expectation.states.join(' or ')}`,
      );
    for (const pattern of expectation.text) {
      if (!pattern.test(parsed.text)) unmet.push(`text does not match /${pattern.source}/`);
    }
    const labels = new Set(parsed.perfdata.map((p) => p.label));
    for (const label of expectation.perfdata) {
      if (!labels.has(label)) unmet.push(`perfdata label '${label}' missing`);
    }
  }
  return { state, parsed, builtIn, expectation: unmet };
}
