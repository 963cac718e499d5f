import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { DEFAULT_REPORTS_DIR } from '../core/project-paths.ts';
import { mergeReports, ReportMergeError } from '../report/merge-reports.ts';
import type { CompatibilityReport } from '../report/model.ts';
import { validateReport } from '../report/validate-report.ts';
import { writeReports } from '../report/write-reports.ts';
import type { CliIo } from './cli-io.ts';
import { formatSummary } from './format-summary.ts';

/**
 * `report merge <json…>` (issue 22): joins the compatibility.json files of the shards of one run
 * (`verify --shard i/N`) into one compatibility.json, compatibility.html and junit.xml, as one
 * serial run would have written them. Every input is read and checked against the report schema
 * before anything is written; exit 0 when the merged run passed, 1 when not, 2 for unreadable or
 * mismatched inputs.
 */
export async function reportMergeCommand(
  files: string[],
  options: { reports?: string },
  io: CliIo,
): Promise<number> {
  if (files.length === 0) throw new HarnessError('report merge needs the compatibility.json of every shard');
  const reports: CompatibilityReport[] = [];
  for (const file of files) {
    const path = resolve(io.cwd, file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new HarnessError(`cannot read report ${file}: ${oneLineMessage(error)}`);
    }
    const problems = validateReport(parsed);
    if (problems.length > 0) throw new HarnessError(`${file} is not a compatibility report: ${problems[0]}`);
    reports.push(parsed as CompatibilityReport);
  }
  let merged: CompatibilityReport;
  try {
    merged = mergeReports(reports);
  } catch (error) {
    if (error instanceof ReportMergeError) throw new HarnessError(error.message);
    throw error;
  }
  let paths: Awaited<ReturnType<typeof writeReports>>;
  try {
    paths = await writeReports(merged, resolve(io.cwd, options.reports ?? DEFAULT_REPORTS_DIR));
  } catch (error) {
    throw new HarnessError(`cannot write the merged reports: ${oneLineMessage(error)}`);
  }
  io.stdout.write(`merged ${reports.length} reports\n`);
  io.stdout.write(formatSummary(merged, paths, io.cwd));
  return merged.outcome.passed ? 0 : 1;
}
