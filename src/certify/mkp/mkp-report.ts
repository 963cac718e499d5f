import type { EvidenceAttachment } from '../../report/attachments.ts';
import type { CatalogIdentity } from '../../report/catalog-identity.ts';
import {
  type ClauseResult,
  type CompatibilityReport,
  emptyVerdictCounts,
  type InterfaceResult,
  type ScenarioResult,
} from '../../report/model.ts';
import type { CertifyMkpResult } from './certify-mkp.ts';
import type { RuleVerdict } from './judge-mkp.ts';
import { APPLICABLE_PLUGIN_CLAUSES, MKP_PLUGIN_RULES } from './mkp-rules.ts';

const EVIDENCE_CHARS = 4000;

export interface MkpReportInput {
  result: CertifyMkpResult;
  /** The package's name in the reports (manifest name, or the folder's). */
  plugin: string;
  /** `--mkp FILE` or `--plugin-dir DIR` as given. */
  source: string;
  toolVersion: string;
  /** The shipped catalog's version and fingerprint (src/report/catalog-identity.ts). */
  catalog: CatalogIdentity;
  /** A PLUGIN clause's catalog entry (section, rule), when the shipped catalog has it. */
  catalogClause?: (
    id: string,
  ) => { spec: string; section: string; rule: string; level?: 'must' | 'should' } | undefined;
  /** Served agent texts written to the reports folder, by scenario. */
  servedFiles: Map<string, string>;
}

function cut(text: string): string {
  return text.length > EVIDENCE_CHARS
    ? `${text.slice(0, EVIDENCE_CHARS)}\n[… cut at ${EVIDENCE_CHARS} characters]`
    : text;
}

function clauseOf(v: RuleVerdict, input: MkpReportInput): ClauseResult {
  const own = MKP_PLUGIN_RULES.find((r) => r.id === v.id);
  const catalog = own ? undefined : input.catalogClause?.(v.id);
  const reading = APPLICABLE_PLUGIN_CLAUSES.get(v.id);
  const meta = own
    ? {
        interface: 'MKP',
        spec: own.spec,
        section: own.section,
        rule: `${own.rule} [${own.level}; project rule, source: ${own.source}]`,
      }
    : {
        interface: 'PLUGIN',
        spec: catalog?.spec ?? 'plugin-interface.md',
        section: catalog?.section ?? 'What the plug-in reports',
        rule: `${catalog?.rule ?? v.id}${reading ? ` (agent-based plug-in: ${reading})` : ''} [${v.level}]`,
      };
  const byScenario = new Map<string, RuleVerdict['findings']>();
  for (const f of v.findings) byScenario.set(f.scenario, [...(byScenario.get(f.scenario) ?? []), f]);
  const scenarios: ScenarioResult[] = [...byScenario].map(([scenario, findings]) => {
    const failed = findings.filter((f) => !f.passed);
    const run = input.result.runs.find((r) => r.scenario === scenario);
    const evidence: EvidenceAttachment[] = [
      ...findings.flatMap((f) => f.evidence ?? []),
      ...(run && failed.length > 0
        ? [
            {
              exchange: 'agent text served at {host}:{port}',
              response: run.servedText === null ? '(connection refused)' : cut(pbxPart(run.servedText)),
              details: {
                shown: 'from the first <<<pbx section on',
                ...(input.servedFiles.has(scenario) ? { file: input.servedFiles.get(scenario) } : {}),
              },
            },
          ]
        : []),
    ];
    return {
      name: scenario,
      uri: `certify-plugin:${scenario}`,
      line: 0,
      status: failed.length > 0 ? 'failed' : 'passed',
      durationMs: 0,
      evidence: evidence.map((e) => ({ ...e, ...(e.response ? { response: cut(e.response) } : {}) })),
      ...(failed.length > 0
        ? { failure: { step: `${input.plugin}: ${v.id}`, message: failed.map((f) => f.message).join('\n') } }
        : {}),
    };
  });
  return {
    id: v.id,
    ...meta,
    // Judged on the package's runs, not on the PBX; `must` fails a certification, `should` warns.
    check: 'plugin',
    property: false,
    level: v.level,
    verdict: v.verdict,
    ...(v.verdict === 'not-verifiable' ? { reason: v.reasons.join('; ') || 'not verifiable' } : {}),
    scenarios,
  };
}

function pbxPart(text: string): string {
  const at = text.indexOf('<<<pbx');
  return at < 0 ? text : text.slice(at);
}

/**
 * The result model of `verify` (src/report/model.ts) for an agent-based package: the applicable
 * PLUGIN clauses under their catalog ids (interface PLUGIN) and the project rules (interface MKP,
 * each rule's text naming its level and published source), one verdict per rule, its scenarios
 * with the evidence (exceptions with tracebacks, the services seen, the served text).
 */
export function toMkpReport(input: MkpReportInput): CompatibilityReport {
  const clauses = input.result.verdicts.map((v) => clauseOf(v, input));
  const interfaces: InterfaceResult[] = [];
  for (const id of ['PLUGIN', 'MKP']) {
    const own = clauses.filter((c) => c.interface === id);
    const counts = emptyVerdictCounts();
    for (const c of own) counts[c.verdict] += 1;
    interfaces.push({ id, score: { passed: counts.pass, testable: own.length }, counts, clauses: own });
  }
  const counts = emptyVerdictCounts();
  for (const c of clauses) counts[c.verdict] += 1;
  const mustFailures = input.result.verdicts.filter((v) => v.verdict === 'fail' && v.level === 'must');
  const harness = input.result.runs.filter((r) => r.harnessProblem);
  const reasons = [
    ...mustFailures.map((v) => `${v.id}: ${v.reasons[0] ?? 'failed'}`),
    ...harness.map((r) => `${r.scenario}: ${r.harnessProblem}`),
  ];
  const scenarioNames = new Set(input.result.runs.map((r) => r.scenario));
  return {
    reportVersion: 1,
    metadata: {
      command: 'certify-plugin',
      target: `${input.plugin} (certify-plugin --mkp)`,
      targetFile: input.source,
      startedAt: input.result.startedAt.toISOString(),
      finishedAt: input.result.finishedAt.toISOString(),
      toolVersion: input.toolVersion,
      ...input.catalog,
      // No Cucumber ran, as for certify-plugin without --mkp: the runs are judged by the command itself.
      cucumberVersion: null,
      tagExpression: null,
    },
    scenarios: {
      total: scenarioNames.size,
      passed: input.result.runs.filter((r) => r.run && !r.failure).length,
      failed: input.result.runs.filter((r) => r.failure).length,
      skipped: harness.length,
      other: 0,
    },
    clauses: counts,
    interfaces,
    untracedScenarios: [],
    baseline: {
      file: '',
      present: false,
      expectedFailures: [],
      unexpectedFailures: mustFailures.map((v) => v.id),
      unexpectedPasses: [],
      listedNotRun: [],
      expired: [],
    },
    outcome: { passed: mustFailures.length === 0 && harness.length === 0 && clauses.length > 0, reasons },
    sandbox: input.result.sandbox,
  };
}
