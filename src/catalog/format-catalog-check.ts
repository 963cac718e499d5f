import type { CatalogCheckResult } from './check-catalog.ts';

/** Human-readable lines: coverage per prefix, unproved testable clauses, then problems. */
export function formatCatalogCheck(result: CatalogCheckResult): string {
  const lines: string[] = [];
  const testable = result.coverage.reduce((sum, entry) => sum + entry.testable, 0);
  const covered = result.coverage.reduce((sum, entry) => sum + entry.covered, 0);
  lines.push(
    `catalog check: ${result.scenarioCount} scenarios prove ${covered} of ${testable} testable clauses`,
  );
  const width = Math.max(...result.coverage.map((entry) => entry.prefix.length), 0);
  for (const entry of result.coverage) {
    const goal = entry.goal ? '  (coverage goal)' : '';
    lines.push(`  ${entry.prefix.padEnd(width)}  ${entry.covered}/${entry.testable} covered${goal}`);
  }
  const unproved = result.coverage.filter((entry) => entry.uncovered.length > 0);
  if (unproved.length > 0) {
    lines.push('testable clauses no scenario proves:');
    for (const entry of unproved) {
      lines.push(`  ${entry.prefix} (${entry.uncovered.length}):`);
      for (const row of wrap(entry.uncovered, 100)) lines.push(`    ${row}`);
    }
  }
  if (result.problems.length === 0) {
    lines.push('catalog check passed');
  } else {
    lines.push(`catalog check failed with ${result.problems.length} problem(s):`);
    for (const problem of result.problems) lines.push(`  ${problem.message}`);
  }
  return `${lines.join('\n')}\n`;
}

function wrap(ids: string[], width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const id of ids) {
    if (row.length > 0 && row.length + id.length + 1 > width) {
      rows.push(row);
      row = '';
    }
    row = row.length > 0 ? `${row} ${id}` : id;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}
