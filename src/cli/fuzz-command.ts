import { randomInt } from 'node:crypto';
import { relative, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { DEFAULT_REPORTS_DIR } from '../core/project-paths.ts';
import { formatFuzzSummary } from '../fuzz/fuzz-summary.ts';
import type { FuzzTarget } from '../fuzz/fuzz-target.ts';
import type { FuzzResult } from '../fuzz/run-fuzz.ts';
import { FACES, type FaceName } from '../fuzz/types.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import type { CliIo } from './cli-io.ts';

export interface FuzzOptions {
  target?: string;
  runs: number;
  seed?: number;
  /** Default: every face. */
  faces?: FaceName[];
  reports?: string;
  path?: string;
  boundMs: number;
  quiet?: boolean;
}

/** Inputs between two liveness probes (a good request that must still be answered). */
const BATCH_SIZE = 250;

function parseCount(value: string): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a positive whole number');
  return Number(value);
}

function parseSeed(value: string): number {
  if (!/^-?\d{1,10}$/.test(value) || Math.abs(Number(value)) > 2 ** 31 - 1)
    throw new InvalidArgumentError('expected a 32-bit whole number');
  return Number(value);
}

function parseFaces(value: string): FaceName[] {
  const faces = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const face of faces)
    if (!(FACES as readonly string[]).includes(face))
      throw new InvalidArgumentError(`unknown face '${face}' (faces: ${FACES.join(', ')})`);
  if (faces.length === 0) throw new InvalidArgumentError(`name at least one face (${FACES.join(', ')})`);
  return faces as FaceName[];
}

function parseReplayPath(value: string): string {
  if (!/^[a-z-]+\/\d+(:\d+)*$/.test(value))
    throw new InvalidArgumentError("expected '<generator>/<fast-check path>' as a failure prints it");
  return value;
}

/** Registers `fuzz` (issue 12, part 2). One call in run.ts. */
export function registerFuzz(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  program
    .command('fuzz')
    .description(
      'send generated malformed input to every face of a target and check each answer against the spec',
    )
    .option('--target <file>', 'target description (JSON); default: a fresh simulator started for the run')
    .option('--runs <n>', 'generated inputs per face', parseCount, 1000)
    .option('--seed <s>', 'fast-check seed (default: random, printed)', parseSeed)
    // The default is named in the text only: commander would print it a second time (issue 20, item 22).
    .option('--faces <list>', `comma-separated faces (default: all: ${FACES.join(',')})`, parseFaces)
    .option('--reports <dir>', 'where to write compatibility.json/html and junit.xml (default: reports/)')
    .option(
      '--path <generator/path>',
      'replay one shrunk failure (with its --seed), as a failure prints it',
      parseReplayPath,
    )
    .option('--bound-ms <ms>', 'longest wait for an answer or a close; longer is a hang', parseCount, 15_000)
    .option('--quiet', 'no progress lines')
    .action(async (options: FuzzOptions) => {
      done(await fuzzCommand(options, io));
    });
}

/**
 * `fuzz`: generated malformed input per face (fast-check), each answer checked: no crash (a good
 * request is answered after every batch), no hang (an answer or a close within `--bound-ms`), no
 * 5xx, and the exact answer where the spec names one. Writes the compatibility reports per face
 * and clause; a failure is shrunk and printed with the command that replays it. Exit 0: nothing
 * failed; 1: a failure; 2: usage or harness error.
 */
export async function fuzzCommand(options: FuzzOptions, io: CliIo): Promise<number> {
  // A path indexes the inputs of one seed: without it, it would replay some random input (issue 20, item 14).
  if (options.path !== undefined && options.seed === undefined)
    throw new HarnessError(
      "--path replays an input of an earlier run: give that run's --seed (and --runs) too, as the failure line prints them",
    );
  // Loaded when the command runs, not for `--help` of every command (fast-check, the faces, the reports).
  const [
    { loadCatalog },
    { failureText, fuzzReport },
    { startEmbeddedTarget, targetFromFile },
    { runFuzz, FuzzReplayError },
  ] = await Promise.all([
    import('../catalog/load-catalog.ts'),
    import('../fuzz/fuzz-report.ts'),
    import('../fuzz/fuzz-target.ts'),
    import('../fuzz/run-fuzz.ts'),
  ]);
  const [{ writeReports }, { loadTarget }] = await Promise.all([
    import('../report/write-reports.ts'),
    import('../runner/load-target.ts'),
  ]);
  const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
  const faces = options.faces ?? [...FACES];
  const targetFile = options.target === undefined ? null : resolve(io.cwd, options.target);
  const catalog = await loadCatalog().catch((error: unknown) => {
    throw new HarnessError(`the clause catalog cannot be read: ${oneLineMessage(error)}`);
  });
  const dir = resolve(io.cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  await ensureWritableDir(dir).catch((error: unknown) => {
    throw new HarnessError(oneLineMessage(error));
  });
  let target: FuzzTarget;
  try {
    target =
      targetFile === null
        ? await startEmbeddedTarget()
        : await targetFromFile(targetFile, (await loadTarget(targetFile)) as never);
  } catch (error) {
    throw new HarnessError(oneLineMessage(error));
  }
  const replay = options.path === undefined ? undefined : splitPath(options.path);
  let result: FuzzResult;
  try {
    io.stdout.write(
      `fuzz ${target.info.name}: seed ${seed}, ${options.runs} inputs per face, faces ${faces.join(',')}\n`,
    );
    result = await runFuzz(target.info, {
      runs: options.runs,
      seed,
      faces,
      boundMs: options.boundMs,
      batchSize: BATCH_SIZE,
      maintenanceCommands: target.maintenanceCommands,
      ...(replay ? { replay } : {}),
      ...(target.alive ? { alive: target.alive } : {}),
      ...(target.rss ? { rss: target.rss } : {}),
      ...(targetFile ? { replayTarget: `--target ${relative(io.cwd, targetFile) || targetFile}` } : {}),
      ...(options.quiet ? {} : { progress: (line: string) => io.stdout.write(`  ${line}\n`) }),
    });
  } catch (error) {
    if (error instanceof FuzzReplayError) throw new HarnessError(error.message);
    throw error;
  } finally {
    await target.close();
  }
  const report = fuzzReport(result, catalog, {
    target: target.info.name,
    targetFile,
    tagExpression: null,
  });
  const paths = await writeReports(report, dir).catch((error: unknown) => {
    throw new HarnessError(`the reports cannot be written: ${oneLineMessage(error)}`);
  });
  io.stdout.write(formatFuzzSummary(result, failureText));
  io.stdout.write(
    `reports: ${[paths.json, paths.html, paths.junit].map((p) => relative(io.cwd, p) || p).join(', ')}\n`,
  );
  return result.generators.some((g) => g.status === 'failed') ? 1 : 0;
}

function splitPath(value: string): { generator: string; path: string } {
  const slash = value.indexOf('/');
  return { generator: value.slice(0, slash), path: value.slice(slash + 1) };
}
