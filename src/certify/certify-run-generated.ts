import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadScenarioFile, type PbxState } from '../../simulators/pbx/index.ts';
import { oneLine, runOnScenario } from './certify-run.ts';
import type { CertifyInput, Judged } from './certify-types.ts';
import type { Finding } from './judge-run.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { ScenarioAddresses } from './scenario-addresses.ts';
import { type GeneratedScenarioFile, generatedScenarioArbitrary } from './state-arbitrary.ts';

/** The clauses a generated run that breaks them shrinks for (the state-independent `must` rules). */
const SHRINK_FOR: ReadonlySet<PluginClauseId> = new Set([
  'PLUGIN-EXIT-CODE',
  'PLUGIN-NO-CRASH',
  'PLUGIN-FIRST-LINE',
  'PLUGIN-PERFDATA-GRAMMAR',
  'PLUGIN-PERFDATA-NUMBERS',
  'PLUGIN-PERFDATA-UOM',
  'PLUGIN-PERFDATA-RANGES',
  'PLUGIN-STATE-AGREES-WITH-PBX',
]);

/**
 * The run stage's generated states (`--runs N`): fast-check draws scenario files; each is run like
 * a catalog scenario (every per-run clause, the watched services' state) and takes part in figure
 * tracking. Each drawn state is written to `<reports>/generated/state-<i>.json` so a run named in
 * a finding can be replayed. A run that breaks a `must` rule shrinks to a minimal file,
 * `shrunk-seed-<seed>.json`.
 */
export async function runGenerated(
  input: CertifyInput,
  addresses: ScenarioAddresses,
): Promise<{ runs: Judged[]; summary: Record<string, unknown> }> {
  const scratch = await mkdtemp(join(tmpdir(), 'pbx-certify-'));
  const generatedDir = join(input.reportsDir, 'generated');
  await mkdir(generatedDir, { recursive: true });
  const runs: Judged[] = [];
  let failure: { file: GeneratedScenarioFile; findings: Finding[] } | null = null;
  let harnessProblem: string | null = null;
  let counter = 0;
  try {
    const property = fc.asyncProperty(generatedScenarioArbitrary, async (file) => {
      if (harnessProblem) return true;
      const index = counter++;
      const kept = index < input.runs;
      const path = kept
        ? join(generatedDir, `state-${index + 1}.json`)
        : join(scratch, `state-${index}.json`);
      const named = { ...file, name: `generated-${index + 1}` };
      await writeFile(path, `${JSON.stringify(named, null, 2)}\n`);
      let judged: Judged;
      try {
        const state: PbxState = loadScenarioFile(path, Date.now());
        judged = await runOnScenario(
          input,
          await addresses.take(),
          `generated #${index + 1}`,
          'A PBX state drawn by fast-check.',
          { kind: 'named', scenario: 'generated' },
          { state },
          undefined,
        );
      } catch (error) {
        harnessProblem = oneLine(error);
        return true;
      }
      if (kept) {
        judged.record.scenarioFile = path;
        runs.push(judged);
      }
      const broken = judged.record.findings.filter((f) => SHRINK_FOR.has(f.clause));
      if (broken.length === 0) return true;
      failure = { file, findings: broken };
      return false;
    });
    const details = await fc.check(property, {
      numRuns: input.runs,
      ...(input.seed === undefined ? {} : { seed: input.seed }),
    });
    const summary: Record<string, unknown> = {
      runs: details.numRuns,
      seed: details.seed,
      files: 'generated/',
    };
    if (harnessProblem) summary['harnessProblem'] = harnessProblem;
    const shrunk = failure as { file: GeneratedScenarioFile; findings: Finding[] } | null;
    if (details.failed && shrunk) {
      const name = `shrunk-seed-${details.seed >>> 0}`;
      const file = {
        ...shrunk.file,
        name,
        description: `Shrunk by certify-plugin --runs (seed ${details.seed}): ${shrunk.findings.map((f) => `${f.clause}: ${f.message}`).join('; ')}`,
      };
      const scenarioFile = join(input.reportsDir, `${name}.json`);
      await writeFile(scenarioFile, `${JSON.stringify(file, null, 2)}\n`);
      summary['path'] = details.counterexamplePath;
      summary['shrunkScenarioFile'] = scenarioFile;
      summary['replay'] = input.replayCommand(scenarioFile);
      summary['shrunkFindings'] = shrunk.findings;
    }
    return { runs, summary };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
