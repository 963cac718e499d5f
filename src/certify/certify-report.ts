import type { Catalog } from '../catalog/catalog.ts';
import { type EvidenceAttachment, MAX_EVIDENCE_CHARS } from '../report/attachments.ts';
import { buildReport, catalogFields } from '../report/build-report.ts';
import type { ClauseResult, CompatibilityReport, ScenarioResult } from '../report/model.ts';
import type { CertifyResult, ClauseOutcome, RunRecord } from './certify-types.ts';

export interface CertifyReportInput {
  result: CertifyResult;
  catalog: Catalog;
  /** The plug-in's name in the reports. */
  plugin: string;
  expectationsFile: string | null;
  /** The plug-in command as shown (shell-quoted, secrets as placeholder names). */
  command: string;
  /** The run's options that a reproduce line repeats (`--expectations FILE`, `--scenario-file FILE`), as given. */
  rerunOptions: string[];
  /** Files the served agent texts were written to, by run name (relative to the reports dir). */
  servedFiles: Map<string, string>;
}

/**
 * A certification in the one result model (src/report/model.ts), built by the one report builder:
 * the interface `PLUGIN` with the catalog's PLUGIN clauses, one verdict each over every run
 * (`fail` for a broken `must` rule, `warn` for a broken `should` rule), the runs browsable beneath
 * each clause (the runs that broke it first, with the full evidence of the worst one). No clause
 * is made up: every id, rule and section comes from the catalog.
 */
export function certifyReport(input: CertifyReportInput): CompatibilityReport {
  const { result } = input;
  const failed = result.clauses.filter((c) => c.verdict === 'fail');
  const harness = result.runs.filter((r) => r.harnessProblem);
  const scenarioCounts = { total: result.runs.length, passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const run of result.runs) {
    if (run.harnessProblem) scenarioCounts.skipped += 1;
    else if (run.findings.length > 0) scenarioCounts.failed += 1;
    else scenarioCounts.passed += 1;
  }
  return buildReport({
    run: {
      command: 'certify-plugin',
      target: `${input.plugin} (certify-plugin)`,
      targetFile: input.expectationsFile,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      rerun: { command: 'certify-plugin', options: input.rerunOptions, plugin: input.command },
    },
    catalog: input.catalog,
    results: { judged: result.clauses.map((outcome) => clauseResult(outcome, input)), scenarioCounts },
    moreReasons: [
      ...failed.map((c) => `${c.id} (must) broken in ${c.findings[0]?.run}: ${c.findings[0]?.message}`),
      ...harness.map((r) => `${r.run}: ${r.harnessProblem}`),
    ],
    certification: {
      level: result.level,
      coverage: result.coverage,
      notCertified: result.notCertified,
      warnings: result.warnings,
    },
    sandbox: result.sandbox,
  });
}

function clauseResult(outcome: ClauseOutcome, input: CertifyReportInput): ClauseResult {
  const clause = input.catalog.clauses.find((c) => c.id === outcome.id);
  if (!clause) throw new Error(`the catalog has no clause ${outcome.id}`);
  const broken = new Map<string, string[]>();
  for (const finding of outcome.findings)
    broken.set(finding.run, [...(broken.get(finding.run) ?? []), finding.message]);
  const runs = input.result.runs.filter((r) => r.judged.has(outcome.id) || broken.has(r.run));
  // The runs that broke the rule first (the worst, i.e. first, with the full evidence), then the rest.
  const ordered = [...runs.filter((r) => broken.has(r.run)), ...runs.filter((r) => !broken.has(r.run))];
  // Every run is judged on PLUGIN-EXIT-CODE: beneath it each run carries its full evidence, so
  // every scenario stays browsable; beneath the other clauses only the worst run does.
  const everyRun = outcome.id === 'PLUGIN-EXIT-CODE';
  const scenarios = ordered.map((run, index) =>
    scenarioResult(
      run,
      broken.get(run.run) ?? [],
      everyRun || (index === 0 && broken.has(run.run)),
      outcome,
      input,
    ),
  );
  if (outcome.id === 'PLUGIN-FIGURES-FOLLOW-SERVED' && scenarios[0]) {
    scenarios[0].evidence.push({ exchange: 'figure tracking', details: trackingDetails(input.result) });
  }
  if (input.result.generated && scenarios[0] && outcome.runs.some((r) => r.startsWith('generated')))
    scenarios[0].evidence.push({
      exchange: 'generated states (fast-check)',
      details: { ...input.result.generated },
    });
  return {
    ...catalogFields(clause),
    verdict: outcome.verdict,
    ...(outcome.verdict === 'not-verifiable' ? { reason: outcome.reason ?? 'not verifiable' } : {}),
    scenarios,
  };
}

function scenarioResult(
  run: RunRecord,
  messages: string[],
  full: boolean,
  outcome: ClauseOutcome,
  input: CertifyReportInput,
): ScenarioResult {
  return {
    name: run.run,
    uri: `certify-plugin:${run.run}`,
    line: 0,
    status: run.harnessProblem ? 'skipped' : messages.length > 0 ? 'failed' : 'passed',
    durationMs: run.evidence?.durationMs ?? 0,
    evidence: evidenceOf(run, messages, full, input),
    ...(messages.length > 0
      ? { failure: { step: `${outcome.id} on ${run.run}`, message: messages.join('\n') } }
      : {}),
    ...(run.harnessProblem ? { notVerifiableReason: run.harnessProblem } : {}),
  };
}

/** The worst run's evidence in full; every other run's in brief (state and exit code). */
function evidenceOf(
  run: RunRecord,
  messages: string[],
  full: boolean,
  input: CertifyReportInput,
): EvidenceAttachment[] {
  const e = run.evidence;
  if (!e) return [];
  const brief = {
    state: e.state,
    exitCode: e.exitCode,
    signal: e.signal,
    timedOut: e.timedOut,
    durationMs: e.durationMs,
    ...(messages.length > 0 ? { broken: messages } : {}),
    ...(run.scenarioFile ? { scenarioFile: run.scenarioFile } : {}),
  };
  if (!full) return [{ exchange: 'plug-in run', request: e.command, details: brief }];
  const evidence: EvidenceAttachment[] = [
    {
      exchange: 'plug-in run',
      request: e.command,
      response: cut(e.stdout),
      details: { ...brief, stderr: cut(e.stderr), scenario: run.description, ...e.notes },
    },
  ];
  if (e.servedText !== undefined) {
    const file = input.servedFiles.get(run.run);
    evidence.push({
      exchange: 'agent text served at {host}:{port}',
      response:
        e.servedText === null
          ? '(connection refused)'
          : e.servedText === ''
            ? '(closed without a byte)'
            : cut(pbxPart(e.servedText)),
      details: {
        bytes: e.servedText === null ? null : Buffer.byteLength(e.servedText),
        shown: 'from the first <<<pbx section on',
        ...(file ? { file } : {}),
      },
    });
  }
  return evidence;
}

function trackingDetails(result: CertifyResult): Record<string, unknown> {
  const follows: Record<string, string[]> = {};
  const notTraced: string[] = [];
  const broken: Record<string, unknown> = {};
  for (const label of result.tracking) {
    if (label.kind === 'follows') follows[label.label] = label.figures;
    else if (label.kind === 'not-traced') notTraced.push(label.label);
    else broken[label.label] = label.evidence;
  }
  return { follows, notTraced, broken };
}

/** The PBX sections are what plug-ins read; the Linux sections before them are left out. */
function pbxPart(text: string): string {
  const at = text.indexOf('<<<pbx');
  return at < 0 ? text : text.slice(at);
}

function cut(text: string): string {
  return text.length > MAX_EVIDENCE_CHARS
    ? `${text.slice(0, MAX_EVIDENCE_CHARS)}\n[… cut at ${MAX_EVIDENCE_CHARS} characters]`
    : text;
}
