import type { ResolutionAnswer, SearchLogEntry } from './resolver-control.ts';

/**
 * What the PBX reports of evaluating a body it must ignore (RESOLVER-NON-2XX-FAILED: "its body is
 * not evaluated even where a parser would match"), one line per trace; empty when nothing shows
 * an evaluation. Read from the resolution and its search log through the control plane: parser
 * hits, index variables with a value, a name, UI values, and search-log lines of the `parser`
 * step. The wording of the log is open (RESOLVER-UNSPEC-LOG-TEXTS), so only the step is read.
 */
export function evaluationTraces(answer: ResolutionAnswer, log: readonly SearchLogEntry[]): string[] {
  const traces: string[] = [];
  for (const attempt of answer.attempts) {
    const who = `provider ${attempt.provider}`;
    if (attempt.hits.length > 0) traces.push(`${who} reports parser hits ${JSON.stringify(attempt.hits)}`);
    if (attempt.variables.some((v) => v !== ''))
      traces.push(`${who} has index variables ${JSON.stringify(attempt.variables)}`);
    if (attempt.name !== null) traces.push(`${who} gave the name ${JSON.stringify(attempt.name)}`);
    if (Object.keys(attempt.uiValues).length > 0)
      traces.push(`${who} passed UI values ${JSON.stringify(attempt.uiValues)}`);
  }
  if (answer.name !== null) traces.push(`the resolution gave the name ${JSON.stringify(answer.name)}`);
  if (Object.keys(answer.uiValues).length > 0)
    traces.push(`the resolution passed UI values ${JSON.stringify(answer.uiValues)}`);
  for (const line of log)
    if (line.step === 'parser') traces.push(`the search log shows a parser line: ${line.message}`);
  return traces;
}
