import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClauseLevel } from '../../../src/catalog/catalog.ts';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import { type CertifyResult, certifyPlugin } from '../../../src/certify/certify.ts';
import { certifyReport } from '../../../src/certify/certify-report.ts';
import { splitCommandLine } from '../../../src/certify/command-line.ts';
import type { Expectations } from '../../../src/certify/expectations.ts';
import { scenarioCatalog } from '../../../src/certify/scenario-catalog.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { FixtureError } from '../../support/fixture-error.ts';

/** How long one ordinary plug-in run may take before the harness ends it (the CLI's `--timeout`). */
const RUN_TIMEOUT_MS = 15_000;
/** The generated states' seed: the same plug-in earns the same verdict on every run. */
const SEED = 19;

/** A certification of small plug-ins written by one scenario of features/certify/. */
export class Certification {
  /** The scenario's folder: its plug-ins and the certification's reports; removed afterwards. */
  readonly dir: string;
  expectations: Expectations | null = null;
  result: CertifyResult | undefined;
  report: CompatibilityReport | undefined;
  /** The command as the scenario wrote it. */
  command = '';
  /** The harness's environment the certification runs with (a scenario may add a secret to it). */
  env: NodeJS.ProcessEnv = process.env;

  private constructor(dir: string) {
    this.dir = dir;
  }

  static async open(): Promise<Certification> {
    try {
      return new Certification(await mkdtemp(join(tmpdir(), 'pbx-certify-feature-')));
    } catch (error) {
      throw new FixtureError(`the harness cannot make a temp folder: ${(error as Error).message}`);
    }
  }

  /** Writes an executable plug-in into the scenario's folder. */
  async writePlugin(name: string, source: string): Promise<void> {
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      throw new Error(`plug-in file name ${name}: letters, digits, _ . - only`);
    const path = join(this.dir, name);
    try {
      await writeFile(path, source.endsWith('\n') ? source : `${source}\n`);
      await chmod(path, 0o755);
    } catch (error) {
      throw new FixtureError(`the harness cannot write the plug-in ${name}: ${(error as Error).message}`);
    }
  }

  /**
   * Runs `certifyPlugin` in-process, as `certify-plugin --scenario …` would, in the scenario's
   * folder (so `./check.py` names the plug-in written there); `generated` states with a fixed
   * seed; the extra runs (`--help`, `--version`, the German locale, the held-back answer) only
   * when asked for. Then builds the certification's report, whose outcome is the certification as
   * a whole. A run the harness could not set up is the harness's fault: a {@link FixtureError}.
   */
  async run(
    command: string,
    scenarioNames: readonly string[],
    options: { extraRuns: boolean; generated: number },
  ) {
    this.command = command;
    const catalog = scenarioCatalog();
    const scenarios = scenarioNames.map((name) => {
      const scenario = catalog.find((s) => s.name === name);
      if (!scenario) throw new Error(`no catalog scenario ${name} (certify-plugin --list-scenarios)`);
      return scenario;
    });
    const clauseCatalog = await loadCatalog();
    const levels = new Map<string, ClauseLevel>(
      clauseCatalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : [])),
    );
    const reportsDir = join(this.dir, 'reports');
    await mkdir(reportsDir, { recursive: true });
    const result = await certifyPlugin({
      argv: splitCommandLine(command),
      expectations: this.expectations,
      scenarios,
      runs: options.generated,
      seed: SEED,
      timeoutMs: RUN_TIMEOUT_MS,
      cwd: this.dir,
      env: this.env,
      levels,
      reportsDir,
      replayCommand: (file) => `certify-plugin --scenario-file ${file} -- ${command}`,
      extraRuns: options.extraRuns,
    });
    const problem = result.runs.find((r) => r.harnessProblem);
    if (problem)
      throw new FixtureError(
        `certify-plugin could not set up the run ${problem.run}: ${problem.harnessProblem}`,
      );
    const generatedProblem = result.generated?.['harnessProblem'];
    if (typeof generatedProblem === 'string')
      throw new FixtureError(`certify-plugin could not set up a generated state: ${generatedProblem}`);
    this.result = result;
    this.report = certifyReport({
      result,
      catalog: clauseCatalog,
      plugin: scenarioNames.join(','),
      expectationsFile: null,
      command,
      rerunOptions: [],
      servedFiles: new Map(),
    });
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
