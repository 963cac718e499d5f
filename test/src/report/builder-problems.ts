import { readFileSync } from 'node:fs';
import { fingerprint, TOOL_VERSION } from '../../../src/core/tool-version.ts';
import { type CompatibilityReport, emptyVerdictCounts, type Verdict } from '../../../src/report/model.ts';
import { validateReport } from '../../../src/report/validate-report.ts';

/**
 * What the one builder guarantees of every report, as a list of the ways `report` falls short
 * (empty when it holds). `catalogFile`: the catalog that judged the run.
 */
export function builderProblems(report: CompatibilityReport, catalogFile: string): string[] {
  const problems = validateReport(report).map((p) => `schema: ${p}`);
  const text = readFileSync(catalogFile, 'utf8');
  const format = Number(/^version:\s*(\d+)\s*$/m.exec(text)?.[1]);
  const m = report.metadata;
  if (m.toolVersion !== TOOL_VERSION) problems.push(`toolVersion ${m.toolVersion}, not ${TOOL_VERSION}`);
  if (m.catalogVersion !== format) problems.push(`catalogVersion ${m.catalogVersion}, not ${format}`);
  if (m.catalogFingerprint !== fingerprint(text))
    problems.push(`catalogFingerprint ${m.catalogFingerprint}, not ${fingerprint(text)}`);
  for (const time of [m.startedAt, m.finishedAt])
    if (new Date(time).toISOString() !== time) problems.push(`time ${time} is not an ISO time`);
  if (m.startedAt > m.finishedAt) problems.push('finished before it started');

  const clauses = report.interfaces.flatMap((i) => i.clauses);
  const total = emptyVerdictCounts();
  for (const face of report.interfaces) {
    const counts = emptyVerdictCounts();
    for (const clause of face.clauses) counts[clause.verdict] += 1;
    if (face.clauses.length === 0) problems.push(`interface ${face.id} has no clause`);
    if (JSON.stringify(face.counts) !== JSON.stringify(counts))
      problems.push(`interface ${face.id}: counts ${JSON.stringify(face.counts)} are not its clauses'`);
    if (
      face.score.passed !== counts.pass ||
      face.score.testable !== face.clauses.length - counts['not-testable']
    )
      problems.push(`interface ${face.id}: score ${JSON.stringify(face.score)} is not its clauses'`);
    for (const verdict of Object.keys(total) as Verdict[]) total[verdict] += counts[verdict];
  }
  if (JSON.stringify(report.clauses) !== JSON.stringify(total))
    problems.push(`clause counts ${JSON.stringify(report.clauses)} are not the interfaces' sum`);
  const s = report.scenarios;
  if (s.total !== s.passed + s.failed + s.skipped + s.other)
    problems.push(`scenario counts ${JSON.stringify(s)} do not add up`);

  const unexpected = clauses.filter((c) => c.baseline?.status === 'unexpected-failure').map((c) => c.id);
  for (const clause of clauses.filter((c) => c.verdict === 'fail'))
    if (clause.baseline?.status !== 'unexpected-failure' && clause.baseline?.status !== 'expected-failure')
      problems.push(`${clause.id} failed without a baseline status`);
  if (JSON.stringify(report.baseline.unexpectedFailures) !== JSON.stringify(unexpected))
    problems.push(
      `baseline.unexpectedFailures ${report.baseline.unexpectedFailures} are not the clauses' ${unexpected}`,
    );
  if (report.outcome.passed !== (report.outcome.reasons.length === 0))
    problems.push('outcome.passed disagrees with its reasons');
  if (unexpected.length > 0 && report.outcome.passed) problems.push('passed with unexpected failures');
  if (s.total === 0 && !report.outcome.reasons.includes('no scenario ran'))
    problems.push('no scenario ran, and the outcome does not say so');
  return problems;
}
