import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ClauseLevel } from '../../../src/catalog/catalog.ts';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import { certifyPlugin } from '../../../src/certify/certify.ts';
import { certifyReport } from '../../../src/certify/certify-report.ts';
import { splitCommandLine } from '../../../src/certify/command-line.ts';
import { parseExpectations } from '../../../src/certify/expectations.ts';
import { BWRAP_VARIABLE, probeSandbox, type Sandbox } from '../../../src/certify/sandbox.ts';
import { scenarioCatalog } from '../../../src/certify/scenario-catalog.ts';
import { FixtureError } from '../../support/fixture-error.ts';
import type { CertificationDone, CertificationSpec } from './certification-spec.ts';

/** How long one ordinary plug-in run may take before the harness ends it (the CLI's `--timeout`). */
const RUN_TIMEOUT_MS = 15_000;
/** The generated states' seed: the same plug-in earns the same verdict on every run. */
const SEED = 19;

/** The clause catalog's levels and the probed sandbox, read once per process. */
let shared: Promise<{
  catalog: Awaited<ReturnType<typeof loadCatalog>>;
  levels: Map<string, ClauseLevel>;
}> | null = null;
const sandboxes = new Map<string, Promise<Sandbox>>();

function sandboxFor(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  // The probe reads only which bubblewrap to run and PATH.
  const key = JSON.stringify([env[BWRAP_VARIABLE] ?? null, env['PATH'] ?? null]);
  let sandbox = sandboxes.get(key);
  if (!sandbox) {
    sandbox = probeSandbox(env);
    sandboxes.set(key, sandbox);
  }
  return sandbox;
}

/**
 * Runs `certifyPlugin` in-process, as `certify-plugin --scenario …` would, in a fresh folder with
 * the spec's plug-ins (so `./check.py` names the plug-in written there); `generated` states with a
 * fixed seed; the extra runs (`--help`, `--version`, the German locale, the held-back answer) only
 * when asked for. Then builds the certification's report, whose outcome is the certification as a
 * whole. A run the harness could not set up is the harness's fault: a {@link FixtureError}.
 */
export async function certifyInProcess(spec: CertificationSpec): Promise<CertificationDone> {
  const catalog = scenarioCatalog();
  const scenarios = spec.scenarios.map((name) => {
    const scenario = catalog.find((s) => s.name === name);
    if (!scenario) throw new Error(`no catalog scenario ${name} (certify-plugin --list-scenarios)`);
    return scenario;
  });
  const expectations =
    spec.expectationsYaml === null
      ? null
      : await parseExpectations(parseYaml(spec.expectationsYaml), 'the scenario');
  shared ??= loadCatalog().then((clauses) => ({
    catalog: clauses,
    levels: new Map(clauses.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
  }));
  const { catalog: clauseCatalog, levels } = await shared;
  const env = { ...process.env, ...spec.env };
  let dir: string;
  try {
    dir = await mkdtemp(join(tmpdir(), 'pbx-certify-feature-'));
    for (const [name, source] of spec.plugins) {
      const path = join(dir, name);
      await writeFile(path, source.endsWith('\n') ? source : `${source}\n`);
      await chmod(path, 0o755);
    }
    await mkdir(join(dir, 'reports'), { recursive: true });
  } catch (error) {
    throw new FixtureError(`the harness cannot write the plug-ins: ${(error as Error).message}`);
  }
  const result = await certifyPlugin({
    argv: splitCommandLine(spec.command),
    expectations,
    scenarios,
    runs: spec.generated,
    seed: SEED,
    timeoutMs: RUN_TIMEOUT_MS,
    cwd: dir,
    env,
    levels,
    reportsDir: join(dir, 'reports'),
    replayCommand: (file) => `certify-plugin --scenario-file ${file} -- ${spec.command}`,
    extraRuns: spec.extraRuns,
    sandbox: await sandboxFor(env),
  });
  const problem = result.runs.find((r) => r.harnessProblem);
  if (problem)
    throw new FixtureError(
      `certify-plugin could not set up the run ${problem.run}: ${problem.harnessProblem}`,
    );
  const generatedProblem = result.generated?.harnessProblem;
  if (generatedProblem !== undefined)
    throw new FixtureError(`certify-plugin could not set up a generated state: ${generatedProblem}`);
  const report = certifyReport({
    result,
    catalog: clauseCatalog,
    plugin: spec.scenarios.join(','),
    expectationsFile: null,
    command: spec.command,
    rerunOptions: [],
    servedFiles: new Map(),
  });
  return { dir, result, report };
}
