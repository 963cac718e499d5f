import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadScenarioFile } from '../../../simulators/pbx/index.ts';
import { openScenario } from '../open-scenario.ts';
import { probeSandbox, type Sandbox, type SandboxReport } from '../sandbox.ts';
import type { CatalogScenario } from '../scenario-catalog.ts';
import { generatedScenarioArbitrary } from '../state-arbitrary.ts';
import { judgeMkp, type MkpScenarioRun, type RuleVerdict } from './judge-mkp.ts';
import type { PluginPackage } from './plugin-package.ts';
import { RunnerFailure, type RunnerOutcome, runAgentPlugins } from './run-agent-plugins.ts';

export interface CertifyMkpInput {
  /** The package to certify, or the problems that make it invalid. */
  pkg: PluginPackage | null;
  packageProblems: string[];
  scenarios: CatalogScenario[];
  /** Generated PBX states besides the catalog (`--runs`). */
  runs: number;
  seed?: number;
  /** Longest one runner process may take (all plug-ins on one agent text, with the probes). */
  timeoutMs: number;
  progress?: (line: string) => void;
  /** The sandbox the runner is sealed in (probed once per certification; absent: probed here). */
  sandbox?: Sandbox;
}

export interface CertifyMkpResult {
  verdicts: RuleVerdict[];
  runs: MkpScenarioRun[];
  load: RunnerOutcome['load'] | null;
  /** Seed and count of the generated states, when `--runs` was given. */
  generated?: { runs: number; seed: number };
  /** How sealed the runner's runs were (issue 28 §4). */
  sandbox: SandboxReport;
  startedAt: Date;
  finishedAt: Date;
}

const PROBES = { malformed: true, missingItem: true, discoverTwice: true } as const;

/** Catalog scenarios that serve the same PBX state as another (for MKP-PLUGIN-DISCOVERY-STABLE). */
const SAME_STATE: [string, string][] = [['healthy', 'slow-answer']];

/**
 * Certifies an agent-based plug-in package: each catalog scenario on its own fresh simulator, the
 * agent text a Checkmk fetcher gets there handed to a fresh runner process (parse, discovery,
 * check of every discovered service, and the probes), then the generated states, then one verdict
 * per rule (judge-mkp.ts). Never throws for the package's sake.
 */
export async function certifyMkp(input: CertifyMkpInput): Promise<CertifyMkpResult> {
  const startedAt = new Date();
  const now = Math.floor(startedAt.getTime() / 1000);
  const sandbox = input.sandbox ?? (await probeSandbox(process.env));
  const runs: MkpScenarioRun[] = [];
  let load: RunnerOutcome['load'] | null = null;
  let generated: CertifyMkpResult['generated'];
  if (input.pkg) {
    const pkg = input.pkg;
    const run = async (texts: { label: string; text: string }[]) =>
      runAgentPlugins({
        pluginsDir: pkg.pluginsDir,
        now,
        texts,
        probes: PROBES,
        timeoutMs: input.timeoutMs,
        sandbox,
      });
    try {
      load = (await run([])).load;
    } catch (error) {
      if (!(error instanceof RunnerFailure)) throw error;
      // A package whose import hangs or kills the interpreter does not load.
      load = {
        errors: [
          {
            phase: 'import',
            type: 'RunnerFailure',
            message: error.message,
            apiRule: null,
            traceback: error.stderr.slice(-2000),
          },
        ],
        problems: [],
        sections: [],
        checks: [],
        skipped: { snmpSections: 0, inventoryPlugins: 0 },
      };
    }
    const loaded = load.errors.length === 0 && load.problems.length === 0;
    for (const scenario of loaded ? input.scenarios : []) {
      input.progress?.(`${scenario.name} …`);
      let servedText: string | null;
      try {
        const opened = await openScenario(scenario.setup);
        try {
          servedText = await opened.servedText();
        } finally {
          await opened.close();
        }
      } catch (error) {
        runs.push({
          scenario: scenario.name,
          description: scenario.description,
          servedText: null,
          run: null,
          harnessProblem: `the harness could not set up the scenario: ${message(error)}`,
        });
        continue;
      }
      runs.push({
        scenario: scenario.name,
        description: scenario.description,
        ...(await runText(run, scenario.name, servedText)),
      });
    }
    if (loaded && input.runs > 0) {
      input.progress?.(`generated states (${input.runs}) …`);
      const seed = input.seed ?? Date.now() ^ (Math.random() * 0x100000000);
      generated = { runs: input.runs, seed };
      runs.push(...(await generatedRuns(input.runs, seed, run)));
    }
  }
  const verdicts = judgeMkp({
    packageProblems: input.packageProblems,
    load,
    runs,
    sameState: SAME_STATE,
  });
  return {
    verdicts,
    runs,
    load,
    ...(generated ? { generated } : {}),
    sandbox: sandbox.report,
    startedAt,
    finishedAt: new Date(),
  };
}

async function runText(
  run: (texts: { label: string; text: string }[]) => Promise<RunnerOutcome>,
  label: string,
  servedText: string | null,
): Promise<Pick<MkpScenarioRun, 'servedText' | 'run' | 'failure'>> {
  try {
    const outcome = await run([{ label, text: servedText ?? '' }]);
    return { servedText, run: outcome.runs[0] ?? null };
  } catch (error) {
    if (error instanceof RunnerFailure) return { servedText, run: null, failure: error.message };
    throw error;
  }
}

/**
 * `--runs N`: N PBX states drawn by fast-check (the same arbitrary as for command plug-ins), each
 * served by a fresh simulator and run in a fresh runner process. A failing state is reported with
 * the seed that draws it again; it is not shrunk.
 */
async function generatedRuns(
  count: number,
  seed: number,
  run: (texts: { label: string; text: string }[]) => Promise<RunnerOutcome>,
): Promise<MkpScenarioRun[]> {
  const files = fc.sample(generatedScenarioArbitrary, { numRuns: count, seed });
  const dir = await mkdtemp(join(tmpdir(), 'pbx-certify-mkp-'));
  const runs: MkpScenarioRun[] = [];
  try {
    for (const [index, file] of files.entries()) {
      const name = `generated-${index + 1}`;
      const path = join(dir, `${name}.json`);
      await writeFile(path, JSON.stringify(file));
      const state = loadScenarioFile(path, Date.now());
      const opened = await openScenario({ kind: 'named', scenario: 'generated' }, { state });
      let servedText: string | null;
      try {
        servedText = await opened.servedText();
      } finally {
        await opened.close();
      }
      runs.push({
        scenario: name,
        description: `PBX state ${index + 1} of ${count} drawn by fast-check (seed ${seed})`,
        ...(await runText(run, name, servedText)),
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return runs;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
}
