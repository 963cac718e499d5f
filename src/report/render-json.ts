import type { CompatibilityReport } from './model.ts';
import { validateReport } from './validate-report.ts';

/**
 * reports/compatibility.json: the model as JSON, validated against
 * schemas/compatibility-report.schema.json so consumers can rely on the schema, written on one line.
 * Throws when the model does not match the schema (a harness bug, never a verdict).
 */
export function renderJson(report: CompatibilityReport): string {
  const errors = validateReport(report);
  if (errors.length > 0)
    throw new Error(`the report does not match its schema: ${errors.slice(0, 5).join('; ')}`);
  // One line (issue 29, item 17): indentation made a third of the embedded run's report; `jq .` shows it indented.
  return `${JSON.stringify(report)}\n`;
}
