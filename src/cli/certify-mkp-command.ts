import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { CertifyMkpResult } from '../certify/mkp/certify-mkp.ts';
import type { PluginPackage } from '../certify/mkp/plugin-package.ts';
import { HarnessError } from '../core/harness-error.ts';
import { DEFAULT_REPORTS_DIR } from '../core/project-paths.ts';
import { sandboxLine } from '../report/model.ts';
import type { CertificateOutputOptions } from './certificate-output.ts';
import type { CliIo } from './cli-io.ts';
import { shownPath } from './shown-path.ts';

export interface CertifyMkpOptions extends CertificateOutputOptions {
  mkp?: string;
  pluginDir?: string;
  scenario?: string[];
  runs?: number;
  seed?: number;
  timeout?: number;
  reports?: string;
  name?: string;
  quiet?: boolean;
  expectations?: string;
  scenarioFile?: string;
  requireSealed?: boolean;
}

/** Longest one runner process may take by default: all plug-ins on one agent text, with the probes. */
const DEFAULT_TIMEOUT_S = 30;

/**
 * `certify-plugin --mkp FILE` / `--plugin-dir DIR`: certifies an agent-based Checkmk plug-in
 * package (cmk.agent_based.v2) on the stand-in API against the scenario catalog, judged by the
 * applicable PLUGIN clauses and the project's MKP-PLUGIN rules (docs/mkp-plugin-rules.md).
 * Exit 0 when no must-rule failed, 1 when one did, 2 on usage or harness errors.
 */
export async function certifyMkpCommand(
  words: string[],
  options: CertifyMkpOptions,
  io: CliIo,
): Promise<number> {
  if (options.mkp !== undefined && options.pluginDir !== undefined)
    throw new HarnessError('give either --mkp or --plugin-dir, not both');
  if (words.length > 0)
    throw new HarnessError(
      '--mkp and --plugin-dir certify an agent-based package: give no plug-in command after them',
    );
  if (options.expectations !== undefined || options.scenarioFile !== undefined)
    throw new HarnessError(
      '--expectations and --scenario-file apply to command plug-ins, not to --mkp or --plugin-dir',
    );
  const { pythonProblem } = await import('../certify/mkp/run-agent-plugins.ts');
  const python = pythonProblem();
  if (python) throw new HarnessError(python);

  const { scenarioCatalog } = await import('../certify/scenario-catalog.ts');
  const catalog = scenarioCatalog();
  for (const name of options.scenario ?? []) {
    if (!catalog.some((s) => s.name === name))
      throw new HarnessError(`unknown scenario '${name}' (see certify-plugin --list-scenarios)`);
  }
  const wanted = new Set(options.scenario ?? catalog.map((s) => s.name));
  for (const s of catalog) if (wanted.has(s.name) && s.twin) wanted.add(s.twin);
  const scenarios = catalog.filter((s) => wanted.has(s.name));

  const reportsDir = resolve(io.cwd, options.reports ?? DEFAULT_REPORTS_DIR);
  const { ensureWritableDir } = await import('../report/ensure-writable-dir.ts');
  try {
    await ensureWritableDir(reportsDir);
  } catch (error) {
    throw new HarnessError(
      `reports folder ${reportsDir}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { prepareCertificate } = await import('./certificate-output.ts');
  const certificate = await prepareCertificate(options, io);

  // The runner imports the package's code: it runs sealed like a command plug-in (issue 28 §4).
  const { sealedOrNot } = await import('./sealed-or-not.ts');
  const sandbox = await sealedOrNot(io, options.requireSealed === true, options.quiet === true);

  const { openMkp, pluginDirectory, isFamilyFolder } = await import('../certify/mkp/plugin-package.ts');
  let pkg: PluginPackage | null = null;
  let problems: string[] = [];
  let source: string;
  if (options.mkp !== undefined) {
    source = options.mkp;
    const path = resolve(io.cwd, options.mkp);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new HarnessError(`package ${options.mkp} not found`);
    const checked = await openMkp(path, options.mkp);
    if (checked.ok) pkg = checked.package;
    else problems = checked.problems;
  } else if (options.pluginDir !== undefined) {
    source = options.pluginDir;
    const dir = resolve(io.cwd, options.pluginDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new HarnessError(`plug-in folder ${options.pluginDir} not found`);
    if (isFamilyFolder(dir))
      throw new HarnessError(
        `${options.pluginDir} is one plug-in family (it holds agent_based/): give its parent, the cmk_addons_plugins folder`,
      );
    pkg = pluginDirectory(dir, options.pluginDir);
    if (!pkg) throw new HarnessError(`${options.pluginDir} holds no cmk_addons_plugins folder`);
  } else {
    throw new HarnessError('give --mkp FILE or --plugin-dir DIR');
  }
  const plugin = options.name ?? pkg?.manifest?.name ?? basename(resolve(io.cwd, source));
  const mkpPath = options.mkp === undefined ? null : resolve(io.cwd, options.mkp);
  const { packageSubjects } = await import('./certify-certificate.ts');
  const subjectsBefore = certificate && pkg ? await packageSubjects(pkg, mkpPath) : null;

  const { certifyMkp } = await import('../certify/mkp/certify-mkp.ts');
  const progress = options.quiet ? undefined : (line: string) => io.stderr.write(`certify-plugin: ${line}\n`);
  let result: CertifyMkpResult;
  try {
    result = await certifyMkp({
      pkg,
      packageProblems: problems,
      scenarios,
      runs: options.runs ?? 0,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      timeoutMs: Math.round((options.timeout ?? DEFAULT_TIMEOUT_S) * 1000),
      sandbox,
      ...(progress ? { progress } : {}),
    });
  } finally {
    await pkg?.close();
  }

  const servedFiles = new Map<string, string>();
  await mkdir(join(reportsDir, 'served'), { recursive: true });
  for (const r of result.runs) {
    if (r.servedText === null) continue;
    const file = join('served', `${r.scenario}.txt`);
    await writeFile(join(reportsDir, file), r.servedText);
    servedFiles.set(r.scenario, file);
  }
  const { loadCatalog } = await import('../catalog/load-catalog.ts');
  const clauseCatalog = await loadCatalog();
  const catalogClauses = new Map(clauseCatalog.clauses.map((c) => [c.id, c]));
  const { toMkpReport } = await import('../certify/mkp/mkp-report.ts');
  const { writeReports } = await import('../report/write-reports.ts');
  const report = toMkpReport({
    result,
    plugin,
    source,
    catalog: clauseCatalog,
    catalogClause: (id) => catalogClauses.get(id),
    servedFiles,
  });
  const paths = await writeReports(report, reportsDir);
  io.stdout.write(formatSummary(plugin, result, shownPath(io.cwd, paths.json)));
  const exitCode = result.runs.some((r) => r.harnessProblem) ? 2 : report.outcome.passed ? 0 : 1;
  if (certificate) {
    const { packageCertificateFacts } = await import('./certify-certificate.ts');
    const { settleCertificate } = await import('./certificate-output.ts');
    const lines = await settleCertificate(
      certificate,
      exitCode === 0 && subjectsBefore !== null,
      () =>
        packageCertificateFacts({
          subjectsBefore: subjectsBefore ?? [],
          subjectsAfter: async () => {
            if (mkpPath === null) return packageSubjects(pkg as PluginPackage, null);
            const reopened = await openMkp(mkpPath, source);
            if (!reopened.ok) return [];
            await reopened.package.close();
            return packageSubjects(reopened.package, mkpPath);
          },
          result,
          report,
          plugin,
          kind: mkpPath === null ? 'plugin-dir' : 'mkp',
        }),
      io,
    );
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return exitCode;
}

function formatSummary(plugin: string, result: CertifyMkpResult, jsonPath: string): string {
  const lines = result.verdicts.map((v) => {
    const mark =
      v.verdict === 'pass'
        ? 'pass'
        : v.verdict === 'fail'
          ? v.level === 'must'
            ? 'FAIL'
            : 'warn'
          : 'not verifiable';
    const why =
      v.verdict === 'pass'
        ? ''
        : `: ${v.reasons.slice(0, 2).join('; ')}${v.reasons.length > 2 ? ` (+${v.reasons.length - 2} more)` : ''}`;
    return `  ${mark.padEnd(14)} ${v.id.padEnd(30)}${why}`;
  });
  const passed = result.verdicts.filter((v) => v.verdict === 'pass').length;
  const services = result.runs.find((r) => r.scenario === 'healthy')?.run?.services.length;
  return [
    `certify-plugin ${plugin}: ${passed}/${result.verdicts.length} rules passed over ${result.runs.length} scenarios${
      services === undefined ? '' : ` (${services} services on healthy)`
    }`,
    ...lines,
    ...(result.generated
      ? [`  generated states: ${result.generated.runs}, seed ${result.generated.seed} (--seed repeats them)`]
      : []),
    `  ${sandboxLine(result.sandbox)}`,
    `  reports: ${jsonPath} (+ compatibility.html, junit.xml, served/)`,
    '',
  ].join('\n');
}
