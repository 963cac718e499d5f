import type { Catalog } from '../../catalog/catalog.ts';
import type { EvidenceAttachment } from '../../report/attachments.ts';
import { buildReport } from '../../report/build-report.ts';
import type { ClauseResult, CompatibilityReport, ScenarioResult } from '../../report/model.ts';
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
  /** The shipped catalog, whose version and fingerprint name it in the report. */
  catalog: Pick<Catalog, 'version' | 'fingerprint'>;
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
    // A broken `should` rule is a warning in the one result model, never a failure of the run.
    verdict: v.verdict === 'fail' && v.level === 'should' ? 'warn' : v.verdict,
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
  const mustFailures = input.result.verdicts.filter((v) => v.verdict === 'fail' && v.level === 'must');
  const harness = input.result.runs.filter((r) => r.harnessProblem);
  // One scenario per scenario name: it failed when a run of it failed, was skipped when the
  // harness could not set one up, and passed when it ran without either.
  const scenarioCounts = { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const scenario of new Set(input.result.runs.map((r) => r.scenario))) {
    const runs = input.result.runs.filter((r) => r.scenario === scenario);
    scenarioCounts.total += 1;
    if (runs.some((r) => r.failure)) scenarioCounts.failed += 1;
    else if (runs.some((r) => r.harnessProblem)) scenarioCounts.skipped += 1;
    else if (runs.some((r) => r.run)) scenarioCounts.passed += 1;
    else scenarioCounts.other += 1;
  }
  return buildReport({
    run: {
      command: 'certify-plugin',
      target: `${input.plugin} (certify-plugin --mkp)`,
      targetFile: input.source,
      startedAt: input.result.startedAt,
      finishedAt: input.result.finishedAt,
    },
    catalog: input.catalog,
    // The catalog's PLUGIN clauses first, then the project's MKP rules.
    results: {
      judged: input.result.verdicts
        .map((v) => clauseOf(v, input))
        .sort((a, b) => Number(a.interface !== 'PLUGIN') - Number(b.interface !== 'PLUGIN')),
      scenarioCounts,
    },
    moreReasons: [
      ...mustFailures.map((v) => `${v.id}: ${v.reasons[0] ?? 'failed'}`),
      ...harness.map((r) => `${r.scenario}: ${r.harnessProblem}`),
    ],
    sandbox: input.result.sandbox,
  });
}
