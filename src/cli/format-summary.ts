import type { CompatibilityReport } from '../report/model.ts';
import { scoreText } from '../report/score-text.ts';
import type { ReportPaths } from '../report/write-reports.ts';
import { shownPath } from './shown-path.ts';

/** The short text `verify` prints: counts per interface, baseline, outcome and report paths. */
export function formatSummary(report: CompatibilityReport, paths: ReportPaths, cwd: string): string {
  const s = report.scenarios;
  const lines = [
    `target ${report.metadata.target}: ${s.total} scenarios (${s.passed} passed, ${s.failed} failed, ` +
      `${s.skipped} skipped${s.other > 0 ? `, ${s.other} other` : ''})`,
  ];
  const header = [
    'interface',
    'passed',
    'failed',
    'not verifiable',
    'not run',
    'not covered',
    'not testable',
  ];
  const rows = report.interfaces.map((i) => [
    i.id,
    // Nothing verified (left out by a tag filter, or not verifiable on this target): "not run", not a 0/61.
    scoreText(i),
    String(i.counts.fail),
    String(i.counts['not-verifiable']),
    String(i.counts['not-run']),
    String(i.counts['not-covered']),
    String(i.counts['not-testable']),
  ]);
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => (row[col] ?? '').length)));
  for (const row of [header, ...rows]) {
    lines.push(
      `  ${row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0))).join('  ')}`,
    );
  }
  const b = report.baseline;
  if (b.present) lines.push(`baseline: ${shownPath(cwd, b.file)}`);
  if (b.expectedFailures.length > 0) {
    lines.push(`expected failures (${b.expectedFailures.length}): ${b.expectedFailures.join(', ')}`);
  }
  if (b.listedNotRun.length > 0) {
    lines.push(`listed in the baseline but not judged in this run: ${b.listedNotRun.join(', ')}`);
  }
  if (report.outcome.passed) lines.push('PASSED');
  else for (const reason of report.outcome.reasons) lines.push(`FAILED: ${reason}`);
  const show = (path: string) => shownPath(cwd, path);
  lines.push(`reports: ${show(paths.json)}, ${show(paths.html)}, ${show(paths.junit)}`);
  return `${lines.join('\n')}\n`;
}
