import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ClauseLevel } from '../../../src/catalog/catalog.ts';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import { type CertifyResult, certifyPlugin } from '../../../src/certify/certify.ts';
import { certifyReport } from '../../../src/certify/certify-report.ts';
import { splitCommandLine } from '../../../src/certify/command-line.ts';
import { parseExpectations } from '../../../src/certify/expectations.ts';
import { BWRAP_VARIABLE, probeSandbox, type Sandbox } from '../../../src/certify/sandbox.ts';
import { scenarioCatalog } from '../../../src/certify/scenario-catalog.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { FixtureError } from '../../support/fixture-error.ts';

/** How long one ordinary plug-in run may take before the harness ends it (the CLI's `--timeout`). */
const RUN_TIMEOUT_MS = 15_000;
/** The generated states' seed: the same plug-in earns the same verdict on every run. */
const SEED = 19;

/**
 * The When step of features/certify/ (certify.steps.ts), also read by the prefetch
 * (prefetch.ts): the command, the catalog scenarios, the generated states, the extra runs.
 */
export const CERTIFY_STEP =
  /^certify-plugin runs "([^"]*)" on the scenarios? ((?:"[^"]*"(?:, | and )?)+)(?: and (\d+) generated states)?( with the extra runs)?$/;

/**
 * Everything a certification of features/certify/ depends on: the plug-ins the scenario wrote
 * (name and source), its expectations file (YAML as written), the command, the catalog scenarios,
 * the options, and the variables the scenario added to the harness's environment. Two scenarios
 * with the same spec get the same certification (issue 31 §1).
 */
export interface CertificationSpec {
  plugins: [name: string, source: string][];
  expectationsYaml: string | null;
  command: string;
  scenarios: string[];
  generated: number;
  extraRuns: boolean;
  /** Variables set for this certification on top of the harness's environment. */
  env: Record<string, string>;
}

/** What the When step says. */
export type CertifyStep = Pick<CertificationSpec, 'command' | 'scenarios' | 'generated' | 'extraRuns'>;

/** The When step parsed: `null` when the text is not the When step. */
export function parseCertifyStep(text: string): CertifyStep | null {
  const match = CERTIFY_STEP.exec(text);
  return match ? certifyStepOf(match.slice(1)) : null;
}

/**
 * The When step from the groups of {@link CERTIFY_STEP} (Cucumber hands an optional group that
 * did not match as null, a regular expression match as undefined).
 */
export function certifyStepOf(groups: readonly (string | null | undefined)[]): CertifyStep {
  const [command, names, generated, extra] = groups;
  return {
    command: command ?? '',
    scenarios: [...(names ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1] as string),
    generated: Number(generated ?? 0),
    extraRuns: Boolean(extra),
  };
}

/** A finished certification: the folder it ran in (its plug-ins), its result and its report. */
export interface CertificationDone {
  dir: string;
  result: CertifyResult;
  report: CompatibilityReport;
}

/**
 * The certifications of this process, one per spec: a scenario whose spec was certified before
 * (or is being certified, e.g. started ahead by the prefetch) gets that certification. Each runs
 * in a folder of its own (its plug-ins, its reports), removed by {@link closeCertifications}. Its
 * plug-in runs take turns with every other certification's for the process's run slots
 * (src/certify/run-slots.ts).
 */
const certifications = new Map<string, Promise<CertificationDone>>();

/** The key of a spec: every part of it, plug-ins by name. */
function keyOf(spec: CertificationSpec): string {
  return JSON.stringify({
    ...spec,
    plugins: [...spec.plugins].sort(([a], [b]) => a.localeCompare(b)),
    env: Object.entries(spec.env).sort(([a], [b]) => a.localeCompare(b)),
  });
}

/** The certification of `spec`: the one already made or started, else a new one started now. */
export function certification(spec: CertificationSpec): Promise<CertificationDone> {
  const key = keyOf(spec);
  let done = certifications.get(key);
  if (!done) {
    done = certify(spec);
    // Awaited by the scenario (or by closeCertifications): never an unhandled rejection meanwhile.
    done.catch(() => {});
    certifications.set(key, done);
  }
  return done;
}

/** How many certifications this process made or started, and how many of them are done. */
export function certificationCount(): number {
  return certifications.size;
}

/** Waits for every certification started and removes their folders. */
export async function closeCertifications(): Promise<void> {
  const all = [...certifications.values()];
  certifications.clear();
  const settled = await Promise.allSettled(all);
  await Promise.all(
    settled.map((s) => (s.status === 'fulfilled' ? rm(s.value.dir, { recursive: true, force: true }) : null)),
  );
}

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
async function certify(spec: CertificationSpec): Promise<CertificationDone> {
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
  const generatedProblem = result.generated?.['harnessProblem'];
  if (typeof generatedProblem === 'string')
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

/**
 * What one scenario of features/certify/ gathers before its When step (the plug-ins, the
 * expectations, the variables it adds), then the certification it got.
 */
export class Certification {
  private readonly plugins = new Map<string, string>();
  private expectationsYaml: string | null = null;
  /** Variables the scenario adds to the harness's environment (a secret a process holds). */
  readonly env: Record<string, string> = {};
  private done: CertificationDone | undefined;
  /** The command as the scenario wrote it. */
  command = '';

  /** The harness's environment with the scenario's additions. */
  get harnessEnv(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.env };
  }

  /** Notes an executable plug-in for the scenario's certification folder. */
  writePlugin(name: string, source: string): void {
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      throw new Error(`plug-in file name ${name}: letters, digits, _ . - only`);
    this.plugins.set(name, source);
  }

  /** Notes the expectations file, checked at once (a broken one fails its Given step). */
  async setExpectations(yaml: string): Promise<void> {
    await parseExpectations(parseYaml(yaml), 'the scenario');
    this.noteExpectations(yaml);
  }

  /** Notes the expectations file unchecked (the prefetch: the certification checks it). */
  noteExpectations(yaml: string): void {
    this.expectationsYaml = yaml;
  }

  /** The scenario's spec for the When step's command, scenarios and options. */
  spec(step: CertifyStep): CertificationSpec {
    return {
      plugins: [...this.plugins],
      expectationsYaml: this.expectationsYaml,
      ...step,
      env: { ...this.env },
    };
  }

  /** Gets the certification of the scenario's spec (made now, or earlier for the same spec). */
  async run(step: CertifyStep): Promise<void> {
    this.command = step.command;
    this.done = await certification(this.spec(step));
  }

  /** The folder the certification ran in (its plug-ins); only after the When step. */
  get dir(): string {
    if (!this.done) throw new Error('no certification ran: a When step must run certify-plugin first');
    return this.done.dir;
  }

  get result(): CertifyResult | undefined {
    return this.done?.result;
  }

  get report(): CompatibilityReport | undefined {
    return this.done?.report;
  }
}
