import { readFile } from 'node:fs/promises';
import type { CertifyResult } from '../certify/certify.ts';
import type { CertifyMkpResult } from '../certify/mkp/certify-mkp.ts';
import type { PredicateRun, RunKind } from './certification-predicate.ts';
import { sha256Hex } from './plugin-subjects.ts';

/** The names of the runs a command certification planned, by kind (the rest are extra runs of single clauses). */
export interface PlannedRuns {
  catalog: ReadonlySet<string>;
  recordings: ReadonlySet<string>;
  scenarioFile: string | null;
}

/**
 * Every run of a command plug-in's certification as the predicate lists it: its kind, whether it
 * broke a rule (`broke`) or the harness could not set it up (`not-verifiable`), and for a
 * generated state the SHA-256 of the scenario file it was drawn as.
 */
export async function commandRuns(result: CertifyResult, planned: PlannedRuns): Promise<PredicateRun[]> {
  const runs: PredicateRun[] = [];
  for (const record of result.runs) {
    const kind: RunKind = planned.catalog.has(record.run)
      ? 'catalog'
      : planned.recordings.has(record.run)
        ? 'recording'
        : record.run === planned.scenarioFile
          ? 'scenario-file'
          : record.run.startsWith('generated #')
            ? 'generated'
            : 'extra';
    const outcome = record.harnessProblem ? 'not-verifiable' : record.findings.length > 0 ? 'broke' : 'ok';
    const state = kind === 'generated' && record.scenarioFile ? await readFile(record.scenarioFile) : null;
    runs.push({ name: record.run, kind, outcome, ...(state ? { stateSha256: sha256Hex(state) } : {}) });
  }
  return runs;
}

/** Every scenario an agent-based package was run on, as the predicate lists it. */
export function mkpRuns(result: CertifyMkpResult): PredicateRun[] {
  const broken = new Set(
    result.verdicts
      .flatMap((v) => (v.verdict === 'fail' ? v.findings.filter((f) => !f.passed) : []))
      .map((f) => f.scenario),
  );
  return result.runs.map((run) => ({
    name: run.scenario,
    kind: run.scenario.startsWith('generated') ? 'generated' : 'catalog',
    outcome: run.harnessProblem ? 'not-verifiable' : run.failure || broken.has(run.scenario) ? 'broke' : 'ok',
  }));
}
