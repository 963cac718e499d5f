import type { EvidenceAttachment } from '../report/attachments.ts';
import {
  type ClauseResult,
  type CompatibilityReport,
  emptyVerdictCounts,
  type InterfaceResult,
  type ScenarioResult,
} from '../report/model.ts';
import type { CertifyResult, ScenarioVerdict } from './certify.ts';

/** Evidence text per field is cut to this many characters; the full agent text is in served/. */
const EVIDENCE_CHARS = 4000;

export interface AdapterInput {
  result: CertifyResult;
  /** The plug-in's name in the reports. */
  plugin: string;
  /** The command template as shown (secrets as placeholder names). */
  command: string;
  expectationsFile: string | null;
  /** The run's options that a reproduce line repeats (`--expectations FILE`, `--scenario-file FILE`), as given. */
  rerunOptions?: string[];
  toolVersion: string;
  /** Files the served agent texts were written to, by scenario name (relative to the reports dir). */
  servedFiles: Map<string, string>;
}

/**
 * The adapter from certification verdicts to the result model of `verify` (src/report/model.ts),
 * so JSON, HTML and JUnit come from the existing writer: the plug-in is the "interface" and each
 * plug-in × scenario verdict a "clause" with id `<PLUGIN>-<SCENARIO>`, its one run the scenario
 * result with the evidence (command, exit code, output, agent text served). Kept in one place so
 * it follows the report model when that changes.
 */
export function toCompatibilityReport(input: AdapterInput): CompatibilityReport {
  const iface = interfaceId(input.plugin);
  const clauses = input.result.verdicts.map((v) => clauseOf(v, iface, input));
  const counts = emptyVerdictCounts();
  for (const clause of clauses) counts[clause.verdict] += 1;
  const suite: InterfaceResult = {
    id: iface,
    score: { passed: counts.pass, testable: clauses.length },
    counts,
    clauses,
  };
  const failed = input.result.verdicts.filter((v) => v.verdict === 'fail');
  const unverifiable = input.result.verdicts.filter((v) => v.verdict === 'not-verifiable');
  const reasons = [
    ...failed.map((v) => `${v.scenario}: ${v.reasons[0] ?? 'failed'}`),
    ...unverifiable.map((v) => `${v.scenario}: not verifiable: ${v.reasons[0] ?? ''}`),
  ];
  return {
    reportVersion: 1,
    metadata: {
      command: 'certify-plugin',
      target: `${input.plugin} (certify-plugin)`,
      targetFile: input.expectationsFile,
      startedAt: input.result.startedAt.toISOString(),
      finishedAt: input.result.finishedAt.toISOString(),
      toolVersion: input.toolVersion,
      catalogVersion: 0,
      cucumberVersion: null,
      tagExpression: null,
      rerun: { command: 'certify-plugin', options: input.rerunOptions ?? [], plugin: input.command },
    },
    scenarios: {
      total: clauses.length,
      passed: counts.pass,
      failed: counts.fail,
      skipped: counts['not-verifiable'],
      other: 0,
    },
    clauses: counts,
    interfaces: [suite],
    untracedScenarios: [],
    baseline: {
      file: '',
      present: false,
      expectedFailures: [],
      unexpectedFailures: clauses.filter((c) => c.verdict === 'fail').map((c) => c.id),
      unexpectedPasses: [],
      listedNotRun: [],
      expired: [],
    },
    outcome: { passed: failed.length === 0 && unverifiable.length === 0 && clauses.length > 0, reasons },
  };
}

function clauseOf(v: ScenarioVerdict, iface: string, input: AdapterInput): ClauseResult {
  const durationMs = v.evidence?.durationMs ?? 0;
  const scenario: ScenarioResult = {
    name: v.scenario,
    uri: `certify-plugin:${v.scenario}`,
    line: 0,
    status: v.verdict === 'pass' ? 'passed' : v.verdict === 'fail' ? 'failed' : 'skipped',
    durationMs,
    evidence: evidenceOf(v, input),
    ...(v.verdict === 'fail'
      ? { failure: { step: `${input.plugin} on ${v.scenario}`, message: v.reasons.join('\n') } }
      : {}),
    ...(v.verdict === 'not-verifiable' ? { notVerifiableReason: v.reasons.join('; ') } : {}),
  };
  return {
    id: `${iface}-${clauseSuffix(v.scenario)}`,
    interface: iface,
    spec: 'certify-plugin',
    section: v.scenario,
    rule: `${v.description}${v.expected ? '' : ' (no vendor expectation: built-in checks only)'}`,
    check: 'black-box',
    property: v.scenario === 'generated',
    verdict: v.verdict,
    ...(v.verdict === 'not-verifiable' ? { reason: v.reasons.join('; ') || 'not verifiable' } : {}),
    scenarios: [scenario],
  };
}

function evidenceOf(v: ScenarioVerdict, input: AdapterInput): EvidenceAttachment[] {
  const evidence: EvidenceAttachment[] = [];
  const e = v.evidence;
  if (e) {
    evidence.push({
      exchange: 'plug-in run',
      request: e.command,
      response: cut(e.stdout),
      details: {
        exitCode: e.exitCode,
        signal: e.signal,
        state: e.state,
        timedOut: e.timedOut,
        durationMs: e.durationMs,
        stderr: cut(e.stderr),
        ...(v.reasons.length > 0 ? { failedChecks: v.reasons } : {}),
        ...e.notes,
      },
    });
    const file = input.servedFiles.get(v.scenario);
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
  if (v.property) evidence.push({ exchange: 'generated states (fast-check)', details: v.property });
  return evidence;
}

/** The PBX sections are what plug-ins read; the Linux sections before them are left out. */
function pbxPart(text: string): string {
  const at = text.indexOf('<<<pbx');
  return at < 0 ? text : text.slice(at);
}

function cut(text: string): string {
  return text.length > EVIDENCE_CHARS
    ? `${text.slice(0, EVIDENCE_CHARS)}\n[… cut at ${EVIDENCE_CHARS} characters]`
    : text;
}

/** `check_pbx_backups.py` → `CHECKPBXBACKUPSPY` (the report's interface ids are `[A-Z0-9]+`). */
export function interfaceId(plugin: string): string {
  const id = plugin
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 32);
  return id === '' ? 'PLUGIN' : id;
}

function clauseSuffix(scenario: string): string {
  return (
    scenario
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'SCENARIO'
  );
}
