import { constants, existsSync } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { CERTIFICATE_LEVELS } from '../certificate/certification-predicate.ts';
import type { CertificationLevel, CertifyResult } from '../certify/certify.ts';
import {
  interpretedScript,
  shellQuote,
  splitCommandLine,
  unknownPlaceholders,
} from '../certify/command-line.ts';
import type { Expectations } from '../certify/expectations.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { DEFAULT_CATALOG_PATH, DEFAULT_REPORTS_DIR } from '../core/project-paths.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import { sandboxLine } from '../report/model.ts';
import { CLI } from '../report/reproduce.ts';
import type { CertificateOutputOptions } from './certificate-output.ts';
import type { CliIo } from './cli-io.ts';
import { shownPath } from './shown-path.ts';

export interface CertifyPluginOptions extends CertificateOutputOptions {
  expectations?: string;
  scenario?: string[];
  scenarioFile?: string;
  recording?: string[];
  runs?: number;
  seed?: number;
  timeout?: number;
  reports?: string;
  name?: string;
  listScenarios?: boolean;
  listFigures?: boolean;
  requireLevel?: CertificationLevel;
  quiet?: boolean;
  mkp?: string;
  pluginDir?: string;
  requireSealed?: boolean;
}

/** Default time one plug-in run may take (the expectations file or --timeout may change it). */
const DEFAULT_TIMEOUT_S = 30;
/**
 * Generated states run by default: they draw every figure anew, which is what lets figure tracking
 * (PLUGIN-FIGURES-FOLLOW-SERVED) tell a cached answer from a figure that merely stayed put among
 * the catalog's scenarios. `--runs 0` leaves them out.
 */
export const DEFAULT_RUNS = 8;
/** The default seed: the same plug-in earns the same verdict on every run (`--seed` draws others). */
export const DEFAULT_SEED = 19;

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseCount(max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) > max) throw new InvalidArgumentError(`expected 0 to ${max}`);
    return Number(value);
  };
}

function parseSeed(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected an integer');
  return Number(value) | 0;
}

const LEVELS: readonly CertificationLevel[] = CERTIFICATE_LEVELS;

function parseLevel(value: string): CertificationLevel {
  if (!(LEVELS as readonly string[]).includes(value))
    throw new InvalidArgumentError('expected form, state or values');
  return value as CertificationLevel;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > 600)
    throw new InvalidArgumentError('expected 0 < s <= 600');
  return n;
}

/**
 * `certify-plugin`: runs a vendor's check plug-in against every scenario of the built-in catalog
 * (each on a fresh simulator), checks the monitoring-plugin convention and the vendor's
 * expectations, optionally over generated states, and writes compatibility.json, .html and
 * junit.xml (docs/certify-plugin.md). Exit 0 when every expectation and check holds, 1 when one
 * fails, 2 on usage or harness errors.
 */
export function registerCertifyPlugin(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  program
    .command('certify-plugin')
    .description('certify a monitoring check plug-in against the simulated PBX (docs/certify-plugin.md)')
    .argument(
      '[command...]',
      'the plug-in command with placeholders {host} {port} {web} {xmlrpc} {login} {auth} {timeout}: several words after --, or one quoted string (split like a shell, without expansions)',
    )
    .option(
      '--expectations <file>',
      'expected states per scenario (YAML, schemas/plugin-expectations.schema.json)',
    )
    .option('--scenario <name>', 'run only this catalog scenario (repeatable)', collect)
    .option('--scenario-file <file>', 'run a scenario file (e.g. a shrunk failure) instead of the catalog')
    .option(
      '--recording <file>',
      'also certify against a recording (pbx-conformance record), replayed byte for byte, as scenario recording-<file name> (repeatable)',
      collect,
    )
    .option(
      '--runs <n>',
      `also run the plug-in on this many generated PBX states (fast-check; default ${DEFAULT_RUNS} for a plug-in command, 0 with --mkp or --scenario-file)`,
      parseCount(100_000),
    )
    .option('--seed <n>', `seed of the generated states (default ${DEFAULT_SEED}; replays a run)`, parseSeed)
    .option('--timeout <s>', `longest one run may take (default ${DEFAULT_TIMEOUT_S} s)`, parseSeconds)
    .option(
      '--reports <dir>',
      'directory for compatibility.json, compatibility.html, junit.xml (default: reports/)',
    )
    .option('--name <name>', "the plug-in's name in the reports (default: the executable's file name)")
    .option('--list-scenarios', 'list the built-in scenarios and exit')
    .option(
      '--list-figures',
      'list the figure catalog (the names `measures` may declare, their unit and where they are served) and exit',
    )
    .option(
      '--require-level <level>',
      'exit 1 when the certification proves less than this level: form (no file), state (watched services), values (every label declared)',
      parseLevel,
    )
    .option('--quiet', 'no progress output, only the summary')
    .option(
      '--mkp <file>',
      'certify an agent-based Checkmk plug-in package (cmk.agent_based.v2) instead of a command (docs/mkp-plugin-rules.md)',
    )
    .option('--plugin-dir <dir>', 'like --mkp, for a package not yet built: its cmk_addons_plugins folder')
    .option(
      '--require-sealed',
      'exit 2 before any run where the plug-in cannot run sealed (bubblewrap missing or not permitted)',
    )
    .option(
      '--certificate <file>',
      'when the certification passes, write a certificate: an in-toto Statement in a DSSE envelope (docs/certificate.md)',
    )
    .option(
      '--sign-key <key.pem>',
      'sign the certificate with this Ed25519 private key (PEM); without it, unsigned',
    )
    .option(
      '--badge <file.svg>',
      'with --certificate: also write a badge (SVG, shields.io style) of the certificate',
    )
    .action(async (words: string[], options: CertifyPluginOptions) => {
      done(await certifyPluginCommand(words, options, io));
    });
}

export async function certifyPluginCommand(
  words: string[],
  options: CertifyPluginOptions,
  io: CliIo,
): Promise<number> {
  const { scenarioCatalog } = await import('../certify/scenario-catalog.ts');
  const catalog = scenarioCatalog();
  if (options.listScenarios) {
    for (const s of catalog) io.stdout.write(`${s.name.padEnd(22)} ${s.purpose}\n`);
    return 0;
  }
  if (options.listFigures) {
    const { FIGURE_CATALOG, whereServed } = await import('../certify/figure-catalog.ts');
    for (const f of FIGURE_CATALOG)
      io.stdout.write(`${f.name.padEnd(36)} ${f.unit.padEnd(6)} ${whereServed(f)}: ${f.description}\n`);
    return 0;
  }
  if (options.mkp !== undefined || options.pluginDir !== undefined) {
    const { certifyMkpCommand } = await import('./certify-mkp-command.ts');
    return certifyMkpCommand(words, options, io);
  }
  const argv = commandArgv(words);
  const unknown = unknownPlaceholders(argv);
  if (unknown.length > 0)
    throw new HarnessError(
      `unknown placeholder ${unknown.join(', ')} (known: {host} {port} {web} {xmlrpc} {login} {auth} {timeout})`,
    );
  const { executableProblem } = await import('../certify/run-plugin.ts');
  const problem = executableProblem(argv[0] as string, io.cwd, io.env);
  if (problem) throw new HarnessError(problem);
  // The runs' modules load while the checks below read their files (issue 31 §2: the plug-in's
  // first run, and with it the slow-answer run's 7 s, starts as early as it can).
  const certifyModule = import('../certify/certify.ts');
  certifyModule.catch(() => undefined); // awaited below, where a failure is reported
  const { prepareCertificate } = await import('./certificate-output.ts');
  const certificate = await prepareCertificate(options, io);
  const { commandSubject } = await import('./certify-certificate.ts');
  const subjectBefore = certificate ? await commandSubject(argv, io) : null;

  let expectations: Expectations | null = null;
  const expectationsPath = options.expectations === undefined ? null : resolve(io.cwd, options.expectations);
  if (expectationsPath) {
    const { loadExpectations } = await import('../certify/expectations.ts');
    try {
      expectations = await loadExpectations(expectationsPath, options.expectations);
    } catch (error) {
      throw new HarnessError(oneLineMessage(error));
    }
  }

  let scenarioFile: { name: string; description: string; path: string } | undefined;
  if (options.scenarioFile !== undefined) {
    scenarioFile = await readScenarioFile(resolve(io.cwd, options.scenarioFile), options.scenarioFile);
  }
  const recordings: { name: string; description: string; path: string }[] = [];
  if (options.recording?.length) {
    const { describeRecording } = await import('../record/recording-start.ts');
    for (const file of options.recording) {
      try {
        recordings.push(describeRecording(resolve(io.cwd, file), file));
      } catch (error) {
        throw new HarnessError(oneLineMessage(error));
      }
    }
  }
  const known = new Set([
    ...catalog.map((s) => s.name),
    ...(scenarioFile ? [scenarioFile.name] : []),
    ...recordings.map((r) => r.name),
  ]);
  // Loaded here: it brings the schema validator, which --help need not load.
  const { nearestKey } = await import('../core/strict-schema.ts');
  for (const name of expectations?.scenarios.keys() ?? []) {
    if (known.has(name)) continue;
    const nearest = nearestKey(name, [...known]);
    throw new HarnessError(
      `expectations file ${options.expectations}: unknown scenario '${name}'${nearest ? ` (did you mean '${nearest}'?)` : ''} (see certify-plugin --list-scenarios)`,
    );
  }
  for (const name of options.scenario ?? []) {
    if (catalog.some((s) => s.name === name)) continue;
    const nearest = nearestKey(
      name,
      catalog.map((s) => s.name),
    );
    throw new HarnessError(
      `unknown scenario '${name}'${nearest ? ` (did you mean '${nearest}'?)` : ''} (see certify-plugin --list-scenarios)`,
    );
  }
  const wanted = new Set(options.scenario ?? (scenarioFile ? [] : catalog.map((s) => s.name)));
  // A scenario with a plain twin needs the twin's state to compare with.
  for (const s of catalog) if (wanted.has(s.name) && s.twin) wanted.add(s.twin);
  const scenarios = catalog.filter((s) => wanted.has(s.name));

  const reportsDir = resolve(io.cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  // Before any plug-in run: an unwritable folder is a harness error at once (issue 20, item 13).
  await ensureWritableDir(reportsDir).catch((error: unknown) => {
    throw new HarnessError(oneLineMessage(error));
  });
  // And the clause catalog is there to be read (only checked here, cheaply: it is read while the
  // runs go, and an unreadable one would otherwise be found after the last run).
  await access(DEFAULT_CATALOG_PATH, constants.R_OK).catch((error: unknown) => {
    throw new HarnessError(`the clause catalog cannot be read: ${oneLineMessage(error)}`);
  });
  const timeoutS = options.timeout ?? expectations?.timeoutSeconds ?? DEFAULT_TIMEOUT_S;
  const plugin = options.name ?? expectations?.plugin ?? defaultPluginName(argv);
  const template = argv.map(shellQuote).join(' ');
  const replayCommand = (file: string) =>
    [
      `${CLI} certify-plugin`,
      ...(options.expectations === undefined ? [] : [`--expectations ${shellQuote(options.expectations)}`]),
      `--scenario-file ${shellQuote(shownPath(io.cwd, file))}`,
      `-- ${template}`,
    ].join(' ');

  const { sealedOrNot } = await import('./sealed-or-not.ts');
  const sandbox = await sealedOrNot(io, options.requireSealed === true, options.quiet === true);

  const { certifyPlugin } = await certifyModule;
  // The clause catalog is read while the runs go: only the judge stage and the report need it.
  let readCatalog: () => void = () => undefined;
  const clauseCatalogRead = new Promise<void>((resolve) => {
    readCatalog = resolve;
  }).then(readClauseCatalog);
  clauseCatalogRead.catch(() => undefined); // awaited by the judge stage and below
  const levels = clauseCatalogRead.then(
    (catalog) => new Map(catalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
  );
  levels.catch(() => undefined);
  const progress = options.quiet ? undefined : (line: string) => io.stderr.write(`certify-plugin: ${line}\n`);
  const certifying = certifyPlugin({
    argv,
    expectations,
    scenarios,
    ...(scenarioFile ? { scenarioFile } : {}),
    ...(recordings.length > 0 ? { recordings } : {}),
    runs: options.runs ?? (scenarioFile ? 0 : DEFAULT_RUNS),
    seed: options.seed ?? DEFAULT_SEED,
    timeoutMs: Math.round(timeoutS * 1000),
    cwd: io.cwd,
    env: io.env,
    levels,
    reportsDir,
    replayCommand,
    sandbox,
    ...(progress ? { progress } : {}),
  });
  readCatalog();
  // The report stage's modules load while the runs wait, not after the last one.
  const reportModules = Promise.all([
    import('../certify/certify-report.ts'),
    import('../report/write-reports.ts'),
  ]);
  reportModules.catch(() => undefined);
  const result = await certifying;
  const clauseCatalog = await clauseCatalogRead;

  const servedFiles = await writeServedTexts(result, reportsDir);
  const [{ certifyReport }, { writeReports }] = await reportModules;
  const report = certifyReport({
    result,
    catalog: clauseCatalog,
    plugin,
    expectationsFile: options.expectations ?? null,
    command: template,
    rerunOptions: [
      ...(options.expectations === undefined ? [] : ['--expectations', options.expectations]),
      ...(options.scenarioFile === undefined ? [] : ['--scenario-file', options.scenarioFile]),
    ],
    servedFiles,
  });
  const paths = await writeReports(report, reportsDir);
  io.stdout.write(formatSummary(plugin, result, shownPath(io.cwd, paths.json), options.requireLevel));
  // A `watches` pattern no run matched is a usage error, found only by running (exit 2).
  if (result.usageProblems.length > 0)
    throw new HarnessError(`expectations file ${options.expectations}: ${result.usageProblems.join('; ')}`);
  const failed = result.clauses.some((c) => c.verdict === 'fail');
  const harness = result.runs.some((r) => r.harnessProblem);
  const belowLevel = options.requireLevel !== undefined && !reachesLevel(result.level, options.requireLevel);
  const exitCode = failed || belowLevel ? 1 : harness ? 2 : 0;
  if (certificate && subjectBefore) {
    const { commandCertificateFacts } = await import('./certify-certificate.ts');
    const { settleCertificate } = await import('./certificate-output.ts');
    const lines = await settleCertificate(
      certificate,
      exitCode === 0,
      () =>
        commandCertificateFacts({
          argv,
          io,
          subjectBefore,
          result,
          report,
          plugin,
          command: template,
          expectations: options.expectations ?? null,
          planned: {
            catalog: new Set(scenarios.map((s) => s.name)),
            recordings: new Set(recordings.map((r) => r.name)),
            scenarioFile: scenarioFile?.name ?? null,
          },
        }),
      io,
    );
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return exitCode;
}

/** Whether a certification's level is at least the required one (form < state < values). */
export function reachesLevel(level: CertificationLevel, required: CertificationLevel): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(required);
}

/** The clause catalog (the levels of the PLUGIN clauses, the report's clause texts); exit 2 when unreadable. */
async function readClauseCatalog() {
  const { loadCatalog } = await import('../catalog/load-catalog.ts');
  try {
    return await loadCatalog();
  } catch (error) {
    throw new HarnessError(`the clause catalog cannot be read: ${oneLineMessage(error)}`);
  }
}

/** The script's file name when the command starts with an interpreter, else the executable's. */
function defaultPluginName(argv: string[]): string {
  return basename(interpretedScript(argv) ?? argv[0] ?? 'plugin');
}

function commandArgv(words: string[]): string[] {
  let argv: string[];
  try {
    argv = words.length === 1 ? splitCommandLine(words[0] as string) : [...words];
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  if (argv.length === 0 || argv[0] === '')
    throw new HarnessError(
      'missing the plug-in command (e.g. certify-plugin -- ./check_pbx.py -H {host} -p {port})',
    );
  return argv;
}

async function readScenarioFile(
  path: string,
  label: string,
): Promise<{ name: string; description: string; path: string }> {
  if (!existsSync(path)) throw new HarnessError(`scenario file ${label} not found`);
  const { loadScenarioFile } = await import('../../simulators/pbx/index.ts');
  try {
    loadScenarioFile(path, Date.now());
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  const { readFile } = await import('node:fs/promises');
  const file = JSON.parse(await readFile(path, 'utf8')) as { name: string; description: string };
  return { name: file.name, description: file.description, path };
}

/** Writes each served agent text to `<reports>/served/<run>.txt`; returns the relative paths. */
async function writeServedTexts(result: CertifyResult, reportsDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const dir = join(reportsDir, 'served');
  await mkdir(dir, { recursive: true });
  for (const run of result.runs) {
    const text = run.evidence?.servedText;
    if (text === null || text === undefined) continue;
    const file = join('served', `${run.run.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')}.txt`);
    await writeFile(join(reportsDir, file), text);
    files.set(run.run, file);
  }
  return files;
}

const MARKS = { pass: 'pass', warn: 'WARNING', fail: 'FAIL', 'not-verifiable': 'not verifiable' } as const;

/**
 * One line per PLUGIN clause (its verdict and the worst run's reason), then one per run, then what
 * the certification proved: its level and coverage, and plainly what it did not certify.
 */
function formatSummary(
  plugin: string,
  result: CertifyResult,
  jsonPath: string,
  requireLevel?: CertificationLevel,
): string {
  const clauses = result.clauses.map((c) => {
    const why =
      c.findings.length > 0
        ? `: ${c.findings[0]?.run}: ${c.findings[0]?.message}${c.findings.length > 1 ? ` (+${c.findings.length - 1} more)` : ''}`
        : c.reason
          ? `: ${c.reason}`
          : '';
    return `  ${MARKS[c.verdict].padEnd(14)} ${c.id.padEnd(30)} ${c.level.padEnd(6)}${why}`;
  });
  const runs = result.runs.map((r) => {
    const state = r.evidence?.state ?? (r.evidence?.timedOut ? 'timeout' : '-');
    const broken = [...new Set(r.findings.map((f) => f.clause))];
    const mark = r.harnessProblem ? 'not verifiable' : broken.length > 0 ? 'broke' : 'ok';
    const why = r.harnessProblem
      ? `: ${r.harnessProblem}`
      : broken.length > 0
        ? `: ${broken.join(', ')}`
        : '';
    return `  ${mark.padEnd(14)} ${r.run.padEnd(30)} ${String(state).padEnd(9)}${why}`;
  });
  const notTraced = result.tracking.filter((t) => t.kind === 'not-traced').map((t) => t.label);
  const passed = result.clauses.filter((c) => c.verdict === 'pass').length;
  const warned = result.clauses.filter((c) => c.verdict === 'warn').length;
  const replay = result.generated?.replay;
  const c = result.coverage;
  const level = [
    `level: ${result.level} (coverage: ${c.declared} of ${c.labels} labels declared, ${c.tracked} tracked, ${c.notTraced} not traced; ${c.watched} watched services)${
      requireLevel && !reachesLevel(result.level, requireLevel)
        ? ` — below the required level ${requireLevel}`
        : ''
    }`,
    ...result.notCertified.map((line) => `  not certified: ${line}`),
    ...result.warnings.map((line) => `  warning: ${line}`),
  ];
  return [
    `certify-plugin ${plugin}: ${passed}/${result.clauses.length} PLUGIN clauses passed${warned > 0 ? `, ${warned} warning(s)` : ''}`,
    ...clauses,
    `runs (${result.runs.length}):`,
    ...runs,
    ...(notTraced.length > 0 ? [`  not traced (no served figure they follow): ${notTraced.join(', ')}`] : []),
    ...(replay ? [`  shrunk failure, replay with: ${replay}`] : []),
    `  ${sandboxLine(result.sandbox)}`,
    `  reports: ${jsonPath} (+ compatibility.html, junit.xml, served/)`,
    ...level,
    '',
  ].join('\n');
}
