import { buildReport } from './build-report.ts';
import { clauseVerdict } from './clause-verdict.ts';
import { readEvidenceHeads } from './compact-evidence.ts';
import type { ExpectedFailure } from './expected-failures.ts';
import type {
  ClauseResult,
  CompatibilityReport,
  RunMetadata,
  SandboxSummary,
  ScenarioCounts,
  ScenarioResult,
  UntracedScenario,
} from './model.ts';

/** Why two reports cannot be joined (different target, tool, catalog or report version). */
export class ReportMergeError extends Error {}

const scenarioKey = (s: { uri: string; line: number; name: string }) => `${s.uri}:${s.line}:${s.name}`;

export interface MergeOptions {
  /** How each report is named in a refusal (its file), in the order of `reports`. */
  names?: readonly string[];
  /** Join fewer than all shards of the run; the merged report says it is partial. */
  allowPartial?: boolean;
}

/**
 * The shards of one run, each once, all of them unless `allowPartial` (issue 29, item 3): refuses
 * a report without a run id (another command's, or an older version's), a merged report, reports
 * of different runs or shard counts, a shard given twice, and a missing shard. Returns what the
 * merged report says of its run.
 */
export function checkShards(
  reports: readonly CompatibilityReport[],
  { names = [], allowPartial = false }: MergeOptions = {},
): NonNullable<RunMetadata['run']> {
  const name = (i: number) => names[i] ?? `report ${i + 1}`;
  const seen = new Map<number, number>();
  let id: string | undefined;
  let total: number | undefined;
  for (const [i, report] of reports.entries()) {
    const run = report.metadata.run;
    if (run === undefined)
      throw new ReportMergeError(
        `${name(i)} names no run (a ${report.metadata.command} report, or one of an earlier version); merge the verify --shard reports of one run`,
      );
    if (run.shard === undefined)
      throw new ReportMergeError(
        `${name(i)} is already a merged report (shards ${run.merged?.shards.join(', ') ?? '?'} of ${run.merged?.total ?? '?'}); merge the shards' own reports`,
      );
    if (id === undefined || total === undefined) {
      id = run.id;
      total = run.shard.total;
    } else if (run.id !== id)
      throw new ReportMergeError(
        `${name(i)} is of run ${run.id}, ${name(0)} of run ${id}; merge only the shards of one run (verify --run-id names a run)`,
      );
    else if (run.shard.total !== total)
      throw new ReportMergeError(
        `${name(i)} is shard ${run.shard.index}/${run.shard.total}, ${name(0)} one of ${total}; merge only the shards of one run`,
      );
    const twice = seen.get(run.shard.index);
    if (twice !== undefined)
      throw new ReportMergeError(
        `shard ${run.shard.index}/${run.shard.total} is given twice (${name(twice)} and ${name(i)}); each shard counts once`,
      );
    seen.set(run.shard.index, i);
  }
  if (id === undefined || total === undefined) throw new ReportMergeError('no report to merge');
  const shards = [...seen.keys()].sort((a, b) => a - b);
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (missing.length > 0 && !allowPartial)
    throw new ReportMergeError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${total}`).join(', ')} of run ${id} missing; give every shard's report, or --allow-partial for a partial report`,
    );
  return { id, merged: { total, shards, partial: missing.length > 0 } };
}

/**
 * `pbx-conformance report merge` (issue 22): joins the reports of the shards of one run
 * (`verify --shard i/N`, each shard running its share of the scenarios) into the report one
 * serial run would have written. Each clause gets the scenarios every shard ran for it (a
 * scenario counted once), and its verdict, the interface scores, the baseline comparison and the
 * outcome are computed afresh from them, the same way `verify` computes them. A clause no shard
 * ran stays `not-run` (or `not-covered`). Refuses reports of different targets, tool or catalog
 * versions, and anything but the shards of one run, each once ({@link checkShards}).
 */
export function mergeReports(
  reports: readonly CompatibilityReport[],
  options: MergeOptions = {},
): CompatibilityReport {
  const [first] = reports;
  if (!first) throw new ReportMergeError('no report to merge');
  const run = checkShards(reports, options);
  for (const report of reports) {
    for (const [what, a, b] of [
      ['report version', report.reportVersion, first.reportVersion],
      ['target', report.metadata.target, first.metadata.target],
      ['tool version', report.metadata.toolVersion, first.metadata.toolVersion],
      ['catalog version', report.metadata.catalogVersion, first.metadata.catalogVersion],
      ['catalog', report.metadata.catalogFingerprint, first.metadata.catalogFingerprint],
    ] as const) {
      if (a !== b)
        throw new ReportMergeError(
          `the reports differ in their ${what} (${String(b)} and ${String(a)}); merge only the shards of one run`,
        );
    }
  }
  const clauseIds = first.interfaces.flatMap((face) => face.clauses.map((clause) => clause.id));
  const byId = new Map<string, ClauseResult[]>();
  for (const report of reports)
    for (const face of report.interfaces)
      for (const clause of face.clauses) byId.set(clause.id, [...(byId.get(clause.id) ?? []), clause]);
  for (const report of reports) {
    const ids = report.interfaces.flatMap((face) => face.clauses.map((clause) => clause.id));
    if (ids.length !== clauseIds.length || ids.some((id, i) => id !== clauseIds[i]))
      throw new ReportMergeError(
        'the reports judge different clause catalogs; merge only the shards of one run',
      );
  }

  const listed = new Map<string, ExpectedFailure>();
  const clauses = clauseIds.map((id): ClauseResult => {
    const versions = byId.get(id) ?? [];
    const base = versions[0]!;
    const scenarios = new Map<string, ScenarioResult>();
    for (const version of versions) for (const s of version.scenarios) scenarios.set(scenarioKey(s), s);
    for (const version of versions) {
      const reason = version.baseline?.reason;
      if (reason !== undefined && version.baseline?.status !== 'unexpected-failure')
        listed.set(id, { clause: id, reason });
    }
    const cited = [...scenarios.values()];
    const judged = clauseVerdict(
      base.check,
      cited,
      versions.some((v) => v.verdict === 'not-run' || v.scenarios.length > 0),
    );
    const { reason: _reason, baseline: _baseline, repeat: _repeat, ...rest } = base;
    const result: ClauseResult = { ...rest, verdict: judged.verdict, scenarios: cited };
    if (judged.verdict === 'not-verifiable') result.reason = judged.reason;
    return result;
  });

  const untraced = new Map<string, UntracedScenario>();
  for (const report of reports) for (const s of report.untracedScenarios) untraced.set(scenarioKey(s), s);
  const scenarioCounts: ScenarioCounts = { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 };
  for (const report of reports) {
    for (const key of Object.keys(scenarioCounts) as (keyof ScenarioCounts)[])
      scenarioCounts[key] += report.scenarios[key];
  }
  const startedAt = reports.map((r) => r.metadata.startedAt).sort()[0] ?? first.metadata.startedAt;
  const finishedAt =
    reports
      .map((r) => r.metadata.finishedAt)
      .sort()
      .at(-1) ?? first.metadata.finishedAt;
  const { metadata } = first;
  // The coverage gates (--require, --fail-under) judge a whole run; each shard judged only its
  // share, so they are not carried over: give them to the merged run's own check if needed.
  return buildReport({
    run: {
      command: metadata.command,
      target: metadata.target,
      targetFile: metadata.targetFile,
      startedAt,
      finishedAt,
      cucumberVersion: metadata.cucumberVersion,
      tagExpression: metadata.tagExpression,
      ...(metadata.webUrl === undefined ? {} : { webUrl: metadata.webUrl }),
      ...(metadata.rerun ? { rerun: metadata.rerun } : {}),
      run,
      toolVersion: metadata.toolVersion,
    },
    catalog: { version: metadata.catalogVersion, fingerprint: metadata.catalogFingerprint },
    results: { judged: clauses, scenarioCounts, untracedScenarios: [...untraced.values()] },
    expectedFailures: {
      path: first.baseline.file,
      file: first.baseline.present ? first.baseline.file : null,
      entries: [...listed.values()],
      expired: first.baseline.expired.map((clause) => ({ clause, reason: listed.get(clause)?.reason ?? '' })),
    },
    ...(first.certification ? { certification: first.certification } : {}),
    ...sandboxOf(reports, options.names ?? []),
    // The heads the shards' compact evidence refers to, each once (issue 29, item 17).
    evidenceHeads: Object.assign({}, ...reports.map((report) => readEvidenceHeads(report))),
  });
}

/**
 * The sandbox of the merged run (issue 28 §4): the weakest of its shards. Sealed only when every
 * shard was; a protection is present only when every shard had it; an unsealed shard's reason is
 * kept under its name, and so is a shard that states no sandbox while another does. None when no
 * shard states one.
 */
function sandboxOf(
  reports: readonly CompatibilityReport[],
  names: readonly string[],
): { sandbox?: SandboxSummary } {
  if (reports.every((r) => r.sandbox === undefined)) return {};
  const name = (i: number) => names[i] ?? `report ${i + 1}`;
  const reasons: string[] = [];
  const boxes: SandboxSummary[] = [];
  for (const [i, { sandbox }] of reports.entries()) {
    if (sandbox === undefined) reasons.push(`${name(i)} states no sandbox`);
    else if (!sandbox.sealed) reasons.push(`${name(i)}: ${sandbox.reason ?? 'not sealed'}`);
    if (sandbox !== undefined) boxes.push(sandbox);
  }
  const tools = new Set(boxes.flatMap((b) => (b.tool === null ? [] : [b.tool])));
  const protections = new Map<string, SandboxSummary['protections'][number]>();
  for (const p of boxes.flatMap((b) => b.protections)) {
    const present = boxes.every((b) => b.protections.some((q) => q.name === p.name && q.present));
    if (!protections.has(p.name)) protections.set(p.name, { ...p, present });
  }
  const sealed = reasons.length === 0;
  return {
    sandbox: {
      sealed,
      tool: tools.size === 0 ? null : [...tools].join(', '),
      ...(sealed ? {} : { reason: reasons.join('; ') }),
      protections: [...protections.values()],
    },
  };
}
