import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadScenarioFile, type PbxState } from '../../simulators/pbx/index.ts';
import type { ClauseLevel } from '../catalog/catalog.ts';
import { recordingStartOptions } from '../record/recording-start.ts';
import { AnswerProxy } from './answer-proxy.ts';
import { displayCommand, fillPlaceholders, type PlaceholderValues, redactSecrets } from './command-line.ts';
import type { Expectation, Expectations } from './expectations.ts';
import { type LabelTracking, type TrackedRun, trackFigures } from './figure-tracking.ts';
import { isolatedEnv } from './isolated-env.ts';
import { type Finding, judgeRun, judgeState, type RunJudgement, sameReading } from './judge-run.ts';
import { type OpenScenario, openScenario, type ScenarioBase } from './open-scenario.ts';
import { PLUGIN_CLAUSES, type PluginClauseId } from './plugin-clauses.ts';
import type { StateName } from './plugin-output.ts';
import { type PluginRun, runPlugin } from './run-plugin.ts';
import { ScenarioAddresses } from './scenario-addresses.ts';
import type { CatalogScenario, ScenarioSetup } from './scenario-catalog.ts';
import { agentFigures, type Figures, jsonFigures, servedData } from './served-figures.ts';
import { type GeneratedScenarioFile, generatedScenarioArbitrary } from './state-arbitrary.ts';
import { watchedState } from './watched-services.ts';

/** The evidence of one plug-in run (secrets redacted). */
export interface RunEvidence {
  /** The command as run, `{auth}` left as its placeholder name. */
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  state: StateName | null;
  /** The agent text a fetcher got at `{host}:{port}`; `null`: connection refused; absent: no PBX. */
  servedText?: string | null;
  /** What the run did (scenario set-up, locale, proxy, isolated folders …). */
  notes: Record<string, unknown>;
}

/** One run of the plug-in: on a catalog scenario, a generated state, or an extra run of a clause. */
export interface RunRecord {
  /** Its name in the reports: the scenario, `generated #3`, `--help`, … */
  run: string;
  description: string;
  /** Whether the vendor's expectations name this scenario. */
  expected: boolean;
  /** `null` when the harness could not set the run up (then `harnessProblem` says why). */
  evidence: RunEvidence | null;
  harnessProblem?: string;
  /** The clauses judged on this run, and those it broke. */
  judged: Set<PluginClauseId>;
  findings: Finding[];
  /** For a generated state: the scenario file it was drawn as (replays it). */
  scenarioFile?: string;
}

/** One verdict per PLUGIN clause over every run. */
export interface ClauseOutcome {
  id: PluginClauseId;
  level: ClauseLevel;
  /** `fail`: a `must` rule broken; `warn`: a `should` rule broken. */
  verdict: 'pass' | 'fail' | 'warn' | 'not-verifiable';
  /** Why it could not be verified. */
  reason?: string;
  /** The runs it was judged on, and the findings against it (the worst run's first). */
  runs: string[];
  findings: { run: string; message: string }[];
}

export interface CertifyInput {
  /** The plug-in's argv with placeholders. */
  argv: string[];
  expectations: Expectations | null;
  scenarios: CatalogScenario[];
  /** `--scenario-file`: one more scenario from a file (a shrunk failure to replay). */
  scenarioFile?: { name: string; description: string; path: string };
  /** `--recording`: recordings (`pbx-conformance record`) certified beside the catalog, each replayed byte for byte. */
  recordings?: { name: string; description: string; path: string }[];
  runs: number;
  seed?: number;
  timeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The level of each PLUGIN clause, from the catalog. */
  levels: ReadonlyMap<string, ClauseLevel>;
  /** Where a shrunk failure and the generated states' files are written (the reports directory). */
  reportsDir: string;
  /** The command line that replays a scenario file, for the shrunk failure's evidence. */
  replayCommand: (scenarioFile: string) => string;
  progress?: (line: string) => void;
  /** Skip the extra runs (help, version, locale, held-back answer): for focused tests only. */
  extraRuns?: boolean;
}

export interface CertifyResult {
  runs: RunRecord[];
  clauses: ClauseOutcome[];
  /** Figure tracking per perfdata label (PLUGIN-FIGURES-FOLLOW-SERVED). */
  tracking: LabelTracking[];
  /** With `--runs`: seed, runs, and a shrunk failure's file and replay command. */
  generated?: Record<string, unknown>;
  startedAt: Date;
  finishedAt: Date;
}

/** `{timeout}` in ordinary runs: above the slow-answer scenario's 7 s. */
export const TIMEOUT_PLACEHOLDER_S = 20;
/** `{timeout}` in the held-back run, and how much longer the answer is held back. */
export const HELD_BACK_TIMEOUT_S = 3;
const HELD_BACK_EXTRA_MS = 6_000;
/** How long past its own timeout the held-back run may take before the harness ends it. */
const HELD_BACK_GRACE_MS = 4_000;
const GERMAN_LOCALE = 'de_DE.UTF-8';

/** Everything one run yields before the clauses that span runs are judged. */
interface Judged {
  record: RunRecord;
  judgement: RunJudgement | null;
  tracked: TrackedRun | null;
}

/**
 * Certifies one plug-in: each selected catalog scenario on a fresh simulator of its own address,
 * every run with fresh temp, home, cache and state folders; then the plain-twin comparison, the
 * extra runs of the clauses that need them (`--help`, `--version`, a German locale, an answer held
 * back past `{timeout}`), the generated states (`--runs`), figure tracking over every run, and one
 * verdict per PLUGIN clause. Never throws for the plug-in's sake.
 */
export async function certifyPlugin(input: CertifyInput): Promise<CertifyResult> {
  const startedAt = new Date();
  const addresses = new ScenarioAddresses();
  const all: Judged[] = [];
  const scenarioRun = async (
    name: string,
    description: string,
    setup: ScenarioSetup,
    base?: ScenarioBase,
  ) => {
    input.progress?.(`${name} …`);
    const judged = await runScenario(input, addresses, name, description, setup, base);
    all.push(judged);
    return judged;
  };
  for (const scenario of input.scenarios)
    await scenarioRun(scenario.name, scenario.description, scenario.setup);
  if (input.scenarioFile) {
    const file = input.scenarioFile;
    await scenarioRun(
      file.name,
      file.description,
      { kind: 'named', scenario: file.name },
      { state: loadScenarioFile(file.path, Date.now()) },
    );
  }
  for (const recording of input.recordings ?? []) {
    const { scenario, replay } = recordingStartOptions(recording.path, input.cwd, 'recorded', Date.now());
    await scenarioRun(
      recording.name,
      recording.description,
      { kind: 'named', scenario: recording.name },
      { state: scenario, replay },
    );
  }
  compareTwins(input.scenarios, all);
  judgeKnownWhenServed(all);
  const extra: Judged[] = [];
  const notVerifiable = new Map<PluginClauseId, string>();
  if (input.extraRuns !== false) {
    input.progress?.('--help and --version …');
    extra.push(...(await helpAndVersion(input)));
    input.progress?.(`healthy under LC_ALL=C and LC_ALL=${GERMAN_LOCALE} …`);
    const locale = await localeRuns(input, addresses);
    if (typeof locale === 'string') notVerifiable.set('PLUGIN-LOCALE-INDEPENDENT', locale);
    else extra.push(...locale);
    if (input.argv.some((word) => word.includes('{timeout}'))) {
      input.progress?.(`answer held back past {timeout} = ${HELD_BACK_TIMEOUT_S} s …`);
      extra.push(await heldBackRun(input, addresses));
    } else {
      notVerifiable.set(
        'PLUGIN-OWN-TIMEOUT',
        "the plug-in command has no {timeout} placeholder, so the harness cannot tell the plug-in's own timeout",
      );
    }
  }
  let generated: Record<string, unknown> | undefined;
  if (input.runs > 0) {
    input.progress?.(`generated states (${input.runs} runs) …`);
    const outcome = await certifyGenerated(input, addresses);
    all.push(...outcome.runs);
    generated = outcome.summary;
  }
  const tracking = trackFigures(all.flatMap((j) => (j.tracked ? [j.tracked] : [])));
  for (const label of tracking) {
    if (label.kind !== 'broken') continue;
    const record = all.find((j) => j.record.run === label.evidence.run)?.record;
    record?.findings.push({ clause: 'PLUGIN-FIGURES-FOLLOW-SERVED', message: label.message });
  }
  if (!all.some((j) => j.tracked))
    notVerifiable.set('PLUGIN-FIGURES-FOLLOW-SERVED', 'no run could be compared with what the PBX served');
  const runs = [...all, ...extra].map((j) => j.record);
  for (const j of all) if (j.tracked) j.record.judged.add('PLUGIN-FIGURES-FOLLOW-SERVED');
  if (!input.expectations?.watches.length && !input.expectations?.scenarios.size)
    notVerifiable.set(
      'PLUGIN-STATE-AGREES-WITH-PBX',
      'the expectations name no watched services (`watches`) and no expected states',
    );
  return {
    runs,
    clauses: clauseOutcomes(runs, input.levels, notVerifiable),
    tracking,
    ...(generated ? { generated } : {}),
    startedAt,
    finishedAt: new Date(),
  };
}

async function runScenario(
  input: CertifyInput,
  addresses: ScenarioAddresses,
  name: string,
  description: string,
  setup: ScenarioSetup,
  base?: ScenarioBase,
): Promise<Judged> {
  const expectation = input.expectations?.scenarios.get(name);
  try {
    return await runOnScenario(input, await addresses.take(), name, description, setup, base, expectation);
  } catch (error) {
    return {
      record: {
        run: name,
        description,
        expected: expectation !== undefined,
        evidence: null,
        harnessProblem: `the harness could not set up the scenario: ${oneLine(error)}`,
        judged: new Set(),
        findings: [],
      },
      judgement: null,
      tracked: null,
    };
  }
}

async function runOnScenario(
  input: CertifyInput,
  host: string,
  name: string,
  description: string,
  setup: ScenarioSetup,
  base: ScenarioBase | undefined,
  expectation: Expectation | undefined,
): Promise<Judged> {
  const opened: OpenScenario = await openScenario(setup, base, host);
  try {
    const values = { ...opened.values, timeout: String(TIMEOUT_PLACEHOLDER_S) };
    const { run, notes } = await isolatedRun(input, fillPlaceholders(input.argv, values), input.timeoutMs);
    const served = await opened.servedText();
    const json = servedData(served) ? await opened.servedJson() : null;
    const judgement = judgeRun(run, input.timeoutMs);
    const findings = [...judgement.findings];
    const judged = new Set(judgement.judged);
    const watched =
      served !== null && input.expectations?.watches.length
        ? watchedState(served, input.expectations.watches)
        : null;
    const state = judgeState(judgement, expectation, watched);
    if (state) {
      judged.add('PLUGIN-STATE-AGREES-WITH-PBX');
      findings.push(...state);
    }
    const figures: Figures | null = servedData(served)
      ? new Map([...agentFigures(served as string), ...(json === null ? [] : jsonFigures(json))])
      : null;
    return {
      record: {
        run: name,
        description,
        expected: expectation !== undefined,
        evidence: evidenceOf(input.argv, values, run, judgement.state, { ...opened.notes, ...notes }, served),
        judged,
        findings,
      },
      judgement,
      tracked: run.timedOut ? null : { run: name, figures, values: numericValues(judgement) },
    };
  } finally {
    await opened.close();
  }
}

/** Runs the plug-in once with fresh temp, home, cache and state folders, removed afterwards. */
async function isolatedRun(
  input: CertifyInput,
  argv: string[],
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ run: PluginRun; notes: Record<string, unknown> }> {
  const isolated = await isolatedEnv({ ...input.env, ...extraEnv });
  try {
    const run = await runPlugin({ argv, cwd: input.cwd, env: isolated.env, timeoutMs });
    return { run, notes: { isolated: 'fresh TMPDIR/TMP/TEMP, HOME, XDG_CACHE_HOME, XDG_STATE_HOME' } };
  } finally {
    await isolated.remove();
  }
}

function numericValues(judgement: RunJudgement): Map<string, string> {
  const values = new Map<string, string>();
  for (const item of judgement.parsed.perfdata) if (item.value !== 'U') values.set(item.label, item.value);
  return values;
}

function evidenceOf(
  argv: string[],
  values: PlaceholderValues,
  run: PluginRun,
  state: StateName | null,
  notes: Record<string, unknown>,
  servedText?: string | null,
): RunEvidence {
  return {
    command: displayCommand(argv, values),
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: redactSecrets(run.stdout, values),
    stderr: redactSecrets(run.stderr, values),
    state,
    ...(servedText === undefined
      ? {}
      : { servedText: servedText === null ? null : redactSecrets(servedText, values) }),
    notes,
  };
}

/**
 * PLUGIN-IGNORES-UNKNOWN: a scenario with a plain twin (the `extension` scenario and `healthy`)
 * must give the twin's state.
 */
function compareTwins(scenarios: CatalogScenario[], all: Judged[]): void {
  for (const scenario of scenarios) {
    if (!scenario.twin) continue;
    const own = all.find((j) => j.record.run === scenario.name);
    const twin = all.find((j) => j.record.run === scenario.twin);
    if (!own?.judgement || !twin?.judgement || own.record.evidence?.timedOut) continue;
    own.record.judged.add('PLUGIN-IGNORES-UNKNOWN');
    if (own.judgement.state !== twin.judgement.state)
      own.record.findings.push({
        clause: 'PLUGIN-IGNORES-UNKNOWN',
        message: `state ${own.judgement.state ?? 'none'} differs from the plain twin ${scenario.twin} (${twin.judgement.state ?? 'none'}): unknown entries must be ignored`,
      });
  }
}

/** PLUGIN-KNOWN-WHEN-SERVED: against `healthy` (every section, known values) the state is not UNKNOWN. */
function judgeKnownWhenServed(all: Judged[]): void {
  const healthy = all.find((j) => j.record.run === 'healthy');
  if (!healthy?.judgement || healthy.record.evidence?.timedOut) return;
  healthy.record.judged.add('PLUGIN-KNOWN-WHEN-SERVED');
  if (healthy.judgement.state === 'UNKNOWN' || healthy.judgement.state === null)
    healthy.record.findings.push({
      clause: 'PLUGIN-KNOWN-WHEN-SERVED',
      message: `state ${healthy.judgement.state ?? 'none'} against a PBX that serves every section with known values`,
    });
}

/**
 * The plug-in's own command without its arguments: the words up to the first option or
 * placeholder (an interpreter and its script stay together).
 */
export function bareCommand(argv: readonly string[]): string[] {
  const end = argv.findIndex((word, index) => index > 0 && (word.startsWith('-') || /\{[a-z]+\}/.test(word)));
  return argv.slice(0, end < 0 ? argv.length : end);
}

/**
 * The rules every run of an extra run is held to as well (PLUGIN-NO-CRASH, PLUGIN-OUTPUT-SIZE):
 * a plug-in that crashes only when its source is slow, or only under another locale, still crashed.
 */
const EVERY_RUN: ReadonlySet<PluginClauseId> = new Set(['PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);

/** PLUGIN-HELP-VERSION: `--help` and `--version` each print text and exit 3. */
async function helpAndVersion(input: CertifyInput): Promise<Judged[]> {
  const out: Judged[] = [];
  for (const option of ['--help', '--version']) {
    const argv = [...bareCommand(input.argv), option];
    const values = noPbxValues();
    const { run, notes } = await isolatedRun(input, argv, Math.min(input.timeoutMs, 10_000));
    const judgement = judgeRun(run, Math.min(input.timeoutMs, 10_000));
    const findings = judgement.findings.filter(
      (f) => f.clause === 'PLUGIN-NO-CRASH' || f.clause === 'PLUGIN-OUTPUT-SIZE',
    );
    const judged = new Set<PluginClauseId>(['PLUGIN-HELP-VERSION', 'PLUGIN-NO-CRASH', 'PLUGIN-OUTPUT-SIZE']);
    if (run.timedOut)
      findings.push({ clause: 'PLUGIN-HELP-VERSION', message: 'still running after the limit' });
    else {
      if (run.exitCode !== 3)
        findings.push({
          clause: 'PLUGIN-HELP-VERSION',
          message: `exit code ${run.exitCode ?? run.signal}, not 3`,
        });
      if (run.stdout.trim() === '')
        findings.push({ clause: 'PLUGIN-HELP-VERSION', message: 'printed nothing on stdout' });
    }
    out.push({
      record: {
        run: option,
        description: `The plug-in asked for its ${option.slice(2)} text: it prints it and exits 3.`,
        expected: false,
        evidence: evidenceOf(argv, values, run, judgement.state, notes),
        judged,
        findings,
      },
      judgement,
      tracked: null,
    });
  }
  return out;
}

/** Whether the machine has a locale (`locale -a` lists `de_DE.utf8`). */
export function localeInstalled(name: string): boolean {
  const listed = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  if (listed.status !== 0) return false;
  const wanted = name.toLowerCase().replace(/[-_.]/g, '');
  return listed.stdout.split('\n').some((line) => line.trim().toLowerCase().replace(/[-_.]/g, '') === wanted);
}

/**
 * PLUGIN-LOCALE-INDEPENDENT: `healthy` run twice on one simulator, under `LC_ALL=C` and under
 * `LC_ALL=de_DE.UTF-8`; the perfdata numbers must be the same, with `.` as decimal point. Returns
 * the reason when the locale is not installed on this machine.
 */
async function localeRuns(input: CertifyInput, addresses: ScenarioAddresses): Promise<Judged[] | string> {
  if (!localeInstalled(GERMAN_LOCALE))
    return `the locale ${GERMAN_LOCALE} is not installed on this machine (locale -a does not list it)`;
  const opened = await openScenario(
    { kind: 'named', scenario: 'healthy' },
    undefined,
    await addresses.take(),
  );
  try {
    const values = { ...opened.values, timeout: String(TIMEOUT_PLACEHOLDER_S) };
    const argv = fillPlaceholders(input.argv, values);
    const c = await isolatedRun(input, argv, input.timeoutMs, { LC_ALL: 'C', LANG: 'C' });
    const de = await isolatedRun(input, argv, input.timeoutMs, {
      LC_ALL: GERMAN_LOCALE,
      LANG: GERMAN_LOCALE,
    });
    const judgedC = judgeRun(c.run, input.timeoutMs);
    const judgedDe = judgeRun(de.run, input.timeoutMs);
    // Both runs are runs of the plug-in: a trace or oversized output in either breaks its rule.
    const findings: Finding[] = [
      ...judgedC.findings.map((f) => ({ ...f, message: `under LC_ALL=C: ${f.message}` })),
      ...judgedDe.findings.map((f) => ({ ...f, message: `under LC_ALL=${GERMAN_LOCALE}: ${f.message}` })),
    ].filter((f) => EVERY_RUN.has(f.clause));
    const inC = new Map(judgedC.parsed.perfdata.map((p) => [p.label, p]));
    for (const p of judgedDe.parsed.perfdata) {
      const c = inC.get(p.label);
      if (c === undefined) continue;
      const other = `${c.value}${c.uom}`;
      if (other !== `${p.value}${p.uom}` && localeMadeTheDifference(c, p))
        findings.push({
          clause: 'PLUGIN-LOCALE-INDEPENDENT',
          message: `'${p.label}' is ${p.value}${p.uom} under LC_ALL=${GERMAN_LOCALE}, ${other} under LC_ALL=C`,
        });
    }
    for (const problem of judgedDe.parsed.problems)
      if (problem.clause === 'PLUGIN-PERFDATA-NUMBERS')
        findings.push({
          clause: 'PLUGIN-LOCALE-INDEPENDENT',
          message: `under LC_ALL=${GERMAN_LOCALE}: ${problem.message}`,
        });
    if (judgedDe.parsed.perfdata.length < judgedC.parsed.perfdata.length && findings.length === 0)
      findings.push({
        clause: 'PLUGIN-LOCALE-INDEPENDENT',
        message: `${judgedC.parsed.perfdata.length} perfdata items under LC_ALL=C, ${judgedDe.parsed.perfdata.length} readable under LC_ALL=${GERMAN_LOCALE}`,
      });
    return [
      {
        record: {
          run: `healthy (LC_ALL=${GERMAN_LOCALE})`,
          description: `healthy under LC_ALL=${GERMAN_LOCALE}, compared with the same run under LC_ALL=C.`,
          expected: false,
          evidence: evidenceOf(input.argv, values, de.run, judgedDe.state, {
            ...de.notes,
            locale: GERMAN_LOCALE,
            stdoutUnderC: redactSecrets(c.run.stdout, values),
          }),
          judged: new Set(['PLUGIN-LOCALE-INDEPENDENT', ...EVERY_RUN]),
          findings,
        },
        judgement: judgedDe,
        tracked: null,
      },
    ];
  } finally {
    await opened.close();
  }
}

/**
 * Whether the locale explains why a perfdata value differs between the `LC_ALL=C` and the German
 * run: the same digits with other separators (`1234` and `1.234`), another unit, or any change of
 * a figure that is not a duration and not the same reading (`sameReading`: 7200 and 7201 seconds). A duration (`s`, `ms`, `us`) with other digits is the plug-in's
 * own measurement, which differs from run to run whatever the locale (check_tcp's `time=`): no
 * evidence against it (PLUGIN-LOCALE-INDEPENDENT).
 */
export function localeMadeTheDifference(
  c: { value: string; uom: string },
  de: { value: string; uom: string },
): boolean {
  if (c.uom !== de.uom) return true;
  // A reading that moved a hair (a value from the plug-in's own clock) is no locale at work.
  if (sameReading(c.value, de.value)) return false;
  // The German locale groups thousands with `.` (a decimal comma is no number at all, caught apart).
  if (c.value.replace(/\./g, '') === de.value.replace(/\./g, '')) return true;
  return !['s', 'ms', 'us'].includes(c.uom);
}

/**
 * PLUGIN-OWN-TIMEOUT: `healthy` behind a proxy that holds the answer back past the plug-in's own
 * timeout (`{timeout}` = 3 s, the answer after 9 s); the plug-in must end by itself, UNKNOWN,
 * with a message, before the harness ends it 4 s after its own timeout.
 */
async function heldBackRun(input: CertifyInput, addresses: ScenarioAddresses): Promise<Judged> {
  const host = await addresses.take();
  const opened = await openScenario({ kind: 'named', scenario: 'healthy' }, undefined, host);
  const proxy = new AnswerProxy({
    upstream: { host: opened.values.host, port: Number(opened.values.port) },
    host,
    delayMs: HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS,
  });
  try {
    const address = await proxy.start();
    const values = { ...opened.values, port: String(address.port), timeout: String(HELD_BACK_TIMEOUT_S) };
    const limit = HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_GRACE_MS;
    const { run, notes } = await isolatedRun(input, fillPlaceholders(input.argv, values), limit);
    const judgement = judgeRun(run, limit);
    const findings: Finding[] = judgement.findings.filter((f) => EVERY_RUN.has(f.clause));
    if (run.timedOut)
      findings.push({
        clause: 'PLUGIN-OWN-TIMEOUT',
        message: `still running ${limit / 1000} s after start with {timeout} = ${HELD_BACK_TIMEOUT_S} s: it does not bound its own run time`,
      });
    else if (judgement.state !== 'UNKNOWN')
      findings.push({
        clause: 'PLUGIN-OWN-TIMEOUT',
        message: `state ${judgement.state ?? `exit ${run.exitCode ?? run.signal}`} when its source did not answer within {timeout}; expected UNKNOWN`,
      });
    else if (judgement.parsed.firstLine.trim() === '')
      findings.push({ clause: 'PLUGIN-OWN-TIMEOUT', message: 'ended UNKNOWN without a message' });
    return {
      record: {
        run: 'held-back answer',
        description: `healthy, but the answer is held back ${(HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS) / 1000} s while {timeout} is ${HELD_BACK_TIMEOUT_S} s.`,
        expected: false,
        evidence: evidenceOf(input.argv, values, run, judgement.state, {
          ...notes,
          proxy: `holds the answer back ${HELD_BACK_TIMEOUT_S * 1000 + HELD_BACK_EXTRA_MS} ms`,
        }),
        judged: new Set(['PLUGIN-OWN-TIMEOUT', ...EVERY_RUN]),
        findings,
      },
      judgement,
      tracked: null,
    };
  } finally {
    await proxy.close();
    await opened.close();
  }
}

function noPbxValues(): PlaceholderValues {
  return {
    host: '',
    port: '',
    web: '',
    xmlrpc: '',
    login: '',
    auth: '',
    timeout: String(TIMEOUT_PLACEHOLDER_S),
  };
}

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
 * `--runs N`: fast-check draws scenario files; each is run like a catalog scenario (every
 * per-run clause, the watched services' state) and takes part in figure tracking. Each drawn
 * state is written to `<reports>/generated/state-<i>.json` so a run named in a finding can be
 * replayed. A run that breaks a `must` rule shrinks to a minimal file, `shrunk-seed-<seed>.json`.
 */
async function certifyGenerated(
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

/**
 * One verdict per PLUGIN clause over every run: broken in some run → `fail` for a `must` rule,
 * `warn` for a `should` rule, its findings the worst run's first; judged and never broken →
 * `pass`; judged on no run → `not-verifiable`, with the reason.
 */
function clauseOutcomes(
  runs: readonly RunRecord[],
  levels: ReadonlyMap<string, ClauseLevel>,
  notVerifiable: ReadonlyMap<PluginClauseId, string>,
): ClauseOutcome[] {
  return (Object.keys(PLUGIN_CLAUSES) as PluginClauseId[]).map((id): ClauseOutcome => {
    const level = levels.get(id) ?? 'must';
    const judgedOn = runs.filter((r) => r.judged.has(id)).map((r) => r.run);
    const findings = runs.flatMap((r) =>
      r.findings.filter((f) => f.clause === id).map((f) => ({ run: r.run, message: f.message })),
    );
    if (findings.length > 0)
      return { id, level, verdict: level === 'must' ? 'fail' : 'warn', runs: judgedOn, findings };
    if (judgedOn.length === 0) {
      const harness = runs.find((r) => r.harnessProblem)?.harnessProblem;
      return {
        id,
        level,
        verdict: 'not-verifiable',
        reason: notVerifiable.get(id) ?? harness ?? `no run judged it (${PLUGIN_CLAUSES[id]} did not run)`,
        runs: [],
        findings: [],
      };
    }
    const reason = notVerifiable.get(id);
    if (reason && id !== 'PLUGIN-STATE-AGREES-WITH-PBX')
      return { id, level, verdict: 'not-verifiable', reason, runs: judgedOn, findings: [] };
    return { id, level, verdict: 'pass', runs: judgedOn, findings: [] };
  });
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
}
