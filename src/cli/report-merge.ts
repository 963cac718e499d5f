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
 * mismatched inputs: reports of different runs, a shard twice, a merged report, a missing shard
 * (unless `--allow-partial`, and then the merged report says it is partial).
 */
export async function reportMergeCommand(
  files: string[],
  options: { reports?: string; allowPartial?: boolean },
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
    merged = mergeReports(reports, { names: files, allowPartial: options.allowPartial ?? false });
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
  const run = merged.metadata.run?.merged;
  io.stdout.write(
    `merged ${reports.length} of ${run?.total ?? reports.length} shards of run ${merged.metadata.run?.id ?? '?'}${run?.partial ? ` (PARTIAL: ${missingShards(run).length > 1 ? 'shards' : 'shard'} ${missingShards(run).join(', ')} missing)` : ''}\n`,
  );
  io.stdout.write(formatSummary(merged, paths, io.cwd));
  return merged.outcome.passed ? 0 : 1;
}

function missingShards(run: { total: number; shards: number[] }): string[] {
  return Array.from({ length: run.total }, (_, i) => i + 1)
    .filter((index) => !run.shards.includes(index))
    .map((index) => `${index}/${run.total}`);
}
