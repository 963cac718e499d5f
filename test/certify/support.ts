import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { probeSandbox, type Sandbox } from '../../src/certify/sandbox.ts';
import { run } from '../../src/cli/run.ts';
import type { CompatibilityReport } from '../../src/report/model.ts';
import { captureIo } from '../src/cli/capture-io.ts';

export const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples', 'plugins');

/** A fresh directory removed after the test. */
export async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'certify-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

let probed: Promise<Sandbox> | undefined;

function hostSandbox(): Promise<Sandbox> {
  probed ??= probeSandbox(process.env);
  return probed;
}

/**
 * The sandbox of a sealed run (`sandbox`, or this machine's, probed once), or `null` after
 * skipping the test where runs cannot be sealed here; with PBX_REQUIRE_SEALED=1 (`.ci/run`
 * installed bubblewrap) that fails the test instead.
 */
export async function sealedOrSkip(t: TestContext, sandbox?: Sandbox): Promise<Sandbox | null> {
  const found = sandbox ?? (await hostSandbox());
  if (found.report.sealed) return found;
  if (process.env['PBX_REQUIRE_SEALED'] === '1')
    assert.fail(`PBX_REQUIRE_SEALED=1 but the runs are not sealed: ${found.report.reason}`);
  t.skip(`not sealed on this machine: ${found.report.reason}`);
  return null;
}

/** Writes an executable throwaway plug-in into `dir`. */
export async function throwawayPlugin(dir: string, name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  await chmod(path, 0o755);
  return path;
}

/** A Python plug-in reading the agent text as a fetcher does, then running `body` on `text`. */
export function pythonPlugin(body: string): string {
  return [
    '#!/usr/bin/env python3',
    'import socket, sys',
    's = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8)',
    'chunks = []',
    'while True:',
    '    c = s.recv(65536)',
    '    if not c: break',
    '    chunks.append(c)',
    "text = b''.join(chunks).decode('utf-8', 'replace')",
    body,
    '',
  ].join('\n');
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
  report: () => Promise<CompatibilityReport>;
}

/** Runs `pbx-conformance certify-plugin …` in-process with `cwd`. */
export async function certify(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliRun> {
  const io = captureIo(cwd, { env });
  const code = await run(['certify-plugin', '--quiet', ...args], io);
  const reportsAt = args.indexOf('--reports');
  const reports = reportsAt >= 0 ? join(cwd, args[reportsAt + 1] as string) : join(cwd, 'reports');
  return {
    code,
    out: io.out(),
    err: io.err(),
    report: async () =>
      JSON.parse(await readFile(join(reports, 'compatibility.json'), 'utf8')) as CompatibilityReport,
  };
}

/**
 * One run of a certification report: `fail` when it broke any PLUGIN clause, with every
 * clause's failure message for it; its full evidence is beneath PLUGIN-EXIT-CODE.
 */
export function verdictOf(report: CompatibilityReport, scenario: string) {
  const clauses = report.interfaces.flatMap((i) => i.clauses);
  const all = clauses.flatMap((c) => c.scenarios.filter((s) => s.name === scenario));
  const full = clauses.find((c) => c.id === 'PLUGIN-EXIT-CODE')?.scenarios.find((s) => s.name === scenario);
  if (!full && all.length === 0) throw new Error(`no run ${scenario}`);
  const failures = clauses.flatMap((c) =>
    c.scenarios.filter((s) => s.name === scenario && s.failure).map((s) => `${c.id}: ${s.failure?.message}`),
  );
  return {
    verdict: all.some((s) => s.status === 'failed')
      ? 'fail'
      : all.some((s) => s.status === 'skipped')
        ? 'not-verifiable'
        : 'pass',
    failure: failures.join('\n'),
    run: full?.evidence.find((e) => e.exchange === 'plug-in run'),
    served: full?.evidence.find((e) => e.exchange.startsWith('agent text served')),
  };
}

/** The verdict of one PLUGIN clause. */
export function clauseOf(report: CompatibilityReport, id: string) {
  const clause = report.interfaces.flatMap((i) => i.clauses).find((c) => c.id === id);
  if (!clause) throw new Error(`no clause ${id}`);
  return clause;
}
