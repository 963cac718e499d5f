import type { Catalog } from '../catalog/catalog.ts';
import { MAX_EVIDENCE_CHARS } from '../report/attachments.ts';
import { buildReport } from '../report/build-report.ts';
import type { CompatibilityReport, ScenarioResult } from '../report/model.ts';
import type { TaggedScenarioResult } from '../report/scenario-results.ts';
import type { FuzzResult, GeneratorOutcome } from './run-fuzz.ts';

/** The pseudo feature file fuzz results are reported under (one per face). */
export function fuzzUri(face: string): string {
  return `fuzz/${face}`;
}

/**
 * The fuzz run in the one result model: each generator is one scenario, tagged with the clauses
 * whose answers it checks, so the compatibility report, its HTML and JUnit forms show the run per
 * face and per clause. The scenarios are made from the generators' outcomes directly; no Cucumber
 * ran, so the report's `cucumberVersion` is null.
 */
export function fuzzReport(
  result: FuzzResult,
  catalog: Catalog,
  metadata: { target: string; targetFile: string | null; tagExpression: string | null },
): CompatibilityReport {
  return buildReport({
    run: {
      command: 'fuzz',
      target: metadata.target,
      targetFile: metadata.targetFile,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      tagExpression: metadata.tagExpression,
    },
    catalog,
    results: { scenarios: fuzzScenarios(result), catalog },
  });
}

/**
 * One scenario per generator, under `fuzz/<face>`; its line is the generator's number in the
 * run's stable order (the number its seed is derived from).
 */
export function fuzzScenarios(result: FuzzResult): TaggedScenarioResult[] {
  return result.generators.map((g, index): TaggedScenarioResult => {
    const scenario: ScenarioResult = {
      name: g.title,
      uri: fuzzUri(g.face),
      line: index + 1,
      status: g.status === 'passed' ? 'passed' : g.status === 'failed' ? 'failed' : 'skipped',
      durationMs: Math.max(0, Math.round(g.durationMs)),
      evidence: [],
    };
    if (g.status === 'not-verifiable') scenario.notVerifiableReason = g.reason ?? 'not verifiable';
    if (g.failure) {
      const { request, seed, path, shrinks, replayCommand } = g.failure;
      scenario.failure = { step: `Then ${stepText(g)}`, message: failureText(g) };
      scenario.evidence.push({
        exchange: `TCP ${request.host}:${request.port} (fuzz ${g.id}, minimal input)`,
        request: request.bytes.toString('latin1').slice(0, MAX_EVIDENCE_CHARS),
        details: { seed, path, shrinks, replay: replayCommand },
      });
    }
    return { tags: g.clauses.map((id) => `@${id}`), result: scenario };
  });
}

function stepText(g: GeneratorOutcome): string {
  return `${g.inputs} generated inputs are answered as the spec says (no crash, no hang, no 5xx)`;
}

/** The failure as the report and the console show it: kind, message, minimal input, replay lines. */
export function failureText(g: GeneratorOutcome): string {
  const f = g.failure;
  if (!f) return '';
  return [
    `${f.kind}: ${f.message}`,
    `minimal input after ${f.shrinks} shrink step(s): ${f.request.bytes.length} bytes to ${f.request.host}:${f.request.port}`,
    `replay: ${f.replayCommand}`,
    `or on the wire: ${f.replayWire}`,
  ].join('\n');
}
