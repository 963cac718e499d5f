import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadScenarioFile, type PbxState } from '../../simulators/pbx/index.ts';
import { oneLine, runOnScenario } from './certify-run.ts';
import type { CertifyInput, GeneratedRuns, Judged } from './certify-types.ts';
import type { Finding } from './judge-run.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { RunSlots } from './run-slots.ts';
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
  'PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS',
  'PLUGIN-STATE-EQUALS-PBX',
]);

/**
 * The run stage's generated states (`--runs N`): fast-check draws N scenario files, each drawn
 * independently of the others; each is run like a catalog scenario (every per-run clause, the
 * watched services' state) and takes part in figure tracking and the figure rules. Each drawn
 * state is written to `<reports>/generated/state-<i>.json` so a run named in a finding can be
 * replayed. The first draw that breaks a state-independent `must` rule is then shrunk to a minimal
 * file, `shrunk-seed-<seed>.json`: shrinking adds runs of its own, it never takes a draw's place.
 */
export async function runGenerated(
  input: CertifyInput,
  addresses: ScenarioAddresses,
  slots: RunSlots,
): Promise<{ runs: Judged[]; summary: GeneratedRuns }> {
  const scratch = await mkdtemp(join(tmpdir(), 'pbx-certify-'));
  const generatedDir = join(input.reportsDir, 'generated');
  await mkdir(generatedDir, { recursive: true });
  const runs: Judged[] = [];
  let harnessProblem: string | null = null;
  const runState = async (
    file: GeneratedScenarioFile,
    name: string,
    path: string,
  ): Promise<Judged | null> => {
    await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
    try {
      const state: PbxState = loadScenarioFile(path, Date.now());
      return await runOnScenario(
        input,
        await addresses.take(),
        name,
        'A PBX state drawn by fast-check.',
        { kind: 'named', scenario: 'generated' },
        { state },
        undefined,
      );
    } catch (error) {
      harnessProblem = oneLine(error);
      return null;
    }
  };
  const brokenIn = (judged: Judged) => judged.record.findings.filter((f) => SHRINK_FOR.has(f.clause));
  try {
    // N independent draws: the property never fails, so fast-check neither stops nor shrinks.
    // They are drawn first and then run, each as a slot comes free; the first broken one in draw
    // order is the one shrunk, whichever run ended first.
    const drawn: GeneratedScenarioFile[] = [];
    const draws = await fc.check(
      fc.asyncProperty(generatedScenarioArbitrary, async (file) => {
        drawn.push(file);
        return true;
      }),
      { numRuns: input.runs, ...(input.seed === undefined ? {} : { seed: input.seed }) },
    );
    const results = await Promise.all(
      drawn.map((file, index) =>
        slots.run(async () => {
          const path = join(generatedDir, `state-${index + 1}.json`);
          const judged = await runState(
            { ...file, name: `generated-${index + 1}` },
            `generated #${index + 1}`,
            path,
          );
          if (judged) judged.record.scenarioFile = path;
          return judged;
        }),
      ),
    );
    let first: { index: number; findings: Finding[] } | null = null;
    for (const [index, judged] of results.entries()) {
      if (!judged) continue;
      runs.push(judged);
      const broken = brokenIn(judged);
      if (broken.length > 0 && !first) first = { index, findings: broken };
    }
    const summary: GeneratedRuns = { runs: drawn.length, seed: draws.seed, files: 'generated/' };
    const found = first as { index: number; findings: Finding[] } | null;
    if (found && !harnessProblem) {
      // Shrinking: fast-check replays the broken draw (its path) and tries smaller states, each an
      // extra run in a scratch folder.
      let smallest = { file: drawn[found.index] as GeneratedScenarioFile, findings: found.findings };
      let steps = 0;
      const replayed = JSON.stringify(drawn[found.index]);
      const details = await fc.check(
        fc.asyncProperty(generatedScenarioArbitrary, async (file) => {
          if (harnessProblem) return true;
          if (steps === 0 && JSON.stringify(file) === replayed) {
            steps = 1;
            return false;
          }
          steps += 1;
          const judged = await slots.run(() =>
            runState(file, `shrink step ${steps}`, join(scratch, `state-${steps}.json`)),
          );
          if (!judged) return true;
          const broken = brokenIn(judged);
          if (broken.length === 0) return true;
          smallest = { file, findings: broken };
          return false;
        }),
        { seed: draws.seed, numRuns: input.runs, path: String(found.index) },
      );
      const name = `shrunk-seed-${draws.seed >>> 0}`;
      const file = {
        ...smallest.file,
        name,
        description: `Shrunk by certify-plugin --runs (seed ${draws.seed}) from generated #${found.index + 1}: ${smallest.findings.map((f) => `${f.clause}: ${f.message}`).join('; ')}`,
      };
      const scenarioFile = join(input.reportsDir, `${name}.json`);
      await writeFile(scenarioFile, `${JSON.stringify(file, null, 2)}\n`);
      summary.shrunkFrom = `generated #${found.index + 1}`;
      summary.shrinkRuns = Math.max(0, steps - 1);
      summary.path = details.counterexamplePath;
      summary.shrunkScenarioFile = scenarioFile;
      summary.replay = input.replayCommand(scenarioFile);
      summary.shrunkFindings = smallest.findings;
    }
    if (harnessProblem) summary.harnessProblem = harnessProblem;
    return { runs, summary };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
