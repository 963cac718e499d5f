import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { CertificateLevel, Stated } from '../certificate/certification-predicate.ts';
import { commandRuns, mkpRuns, type PlannedRuns } from '../certificate/certification-runs.ts';
import { fileSubject, folderSubjects, pluginFile, sha256Hex } from '../certificate/plugin-subjects.ts';
import type { Subject } from '../certificate/statement.ts';
import type { CertifyResult } from '../certify/certify.ts';
import type { CertifyMkpResult } from '../certify/mkp/certify-mkp.ts';
import type { PluginPackage } from '../certify/mkp/plugin-package.ts';
import { HarnessError } from '../core/harness-error.ts';
import type { CompatibilityReport } from '../report/model.ts';
import type { CertificateFacts } from './certificate-output.ts';
import type { CliIo } from './cli-io.ts';

/** What a certification did not establish, said instead of a made-up value. */
const NOT_GRADED = (what: string): Stated<never> => ({ absent: `this certification does not ${what}` });

/**
 * The level the certification reached (issue 28 §3: `form`, `state`, `values`), from the
 * result's typed field.
 */
export function statedLevel(result: Pick<CertifyResult, 'level'>): Stated<CertificateLevel> {
  return { value: result.level };
}

/** The coverage the certification states (counts of labels and watched services), from the result's typed field. */
export function statedCoverage(result: Pick<CertifyResult, 'coverage'>): Stated<Record<string, unknown>> {
  const { declared, tracked, notTraced, watched, labels } = result.coverage;
  return { value: { declared, tracked, notTraced, watched, labels } };
}

/** How sealed the plug-in's runs were, as the report states it (issue 28 §4; src/certify/sandbox.ts). */
export function statedSandbox(report: CompatibilityReport): Stated<Record<string, unknown>> {
  const { sandbox } = report;
  if (!sandbox) return NOT_GRADED('say how sealed its runs were');
  return {
    value: {
      sealed: sandbox.sealed,
      tool: sandbox.tool,
      ...(sandbox.reason === undefined ? {} : { reason: sandbox.reason }),
      protections: sandbox.protections.map((p) => ({ name: p.name, present: p.present })),
    },
  };
}

/**
 * The file a plug-in command's certificate certifies (the executable, or the script after an
 * interpreter), read before the first run: the one the certificate names must be the one that ran.
 */
export async function commandSubject(argv: string[], io: CliIo): Promise<Subject> {
  const path = pluginFile(argv, io.cwd, io.env);
  if (path === null)
    throw new HarnessError(
      `--certificate: the plug-in's file (${argv[0]}${argv[1] ? ` ${argv[1]}` : ''}) cannot be found`,
    );
  try {
    return await fileSubject(path, basename(path));
  } catch (error) {
    throw new HarnessError(
      `--certificate: the plug-in's file ${path} cannot be read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
}

export interface CommandCertificateInput {
  argv: string[];
  io: CliIo;
  subjectBefore: Subject;
  result: CertifyResult;
  report: CompatibilityReport;
  plugin: string;
  command: string;
  expectations: string | null;
  planned: PlannedRuns;
}

/**
 * What the certificate of a command plug-in states. The plug-in's file is read again: a file that
 * changed while it was being certified is not the one the verdicts are about.
 */
export async function commandCertificateFacts(input: CommandCertificateInput): Promise<CertificateFacts> {
  const after = await commandSubject(input.argv, input.io);
  if (after.digest.sha256 !== input.subjectBefore.digest.sha256)
    throw new HarnessError(
      `--certificate: ${after.name} changed while it was being certified; no certificate written`,
    );
  const generated = input.result.generated;
  return {
    subject: [after],
    predicate: {
      report: input.report,
      plugin: { name: input.plugin, kind: 'command', command: input.command },
      runs: await commandRuns(input.result, input.planned),
      generated: generated ? { runs: generated.runs, seed: generated.seed } : null,
      expectations:
        input.expectations === null ? null : await expectationsDigest(input.expectations, input.io),
      level: statedLevel(input.result),
      coverage: statedCoverage(input.result),
      sandbox: statedSandbox(input.report),
    },
  };
}

async function expectationsDigest(name: string, io: CliIo): Promise<{ name: string; sha256: string }> {
  return { name, sha256: sha256Hex(await readFile(resolve(io.cwd, name))) };
}

/**
 * The files an agent-based package's certificate certifies: the `.mkp` file and every member of
 * it (manifest, part archives, each file of each part), or every file of a plug-in folder.
 */
export async function packageSubjects(pkg: PluginPackage, mkpPath: string | null): Promise<Subject[]> {
  if (mkpPath === null) return folderSubjects(pkg.pluginsDir);
  return [
    await fileSubject(mkpPath, basename(mkpPath)),
    ...(pkg.members ?? []).map((m) => ({ name: m.name, digest: { sha256: m.sha256 } })),
  ];
}

export interface PackageCertificateInput {
  subjectsBefore: Subject[];
  /** Reads the subjects again, after the runs. */
  subjectsAfter: () => Promise<Subject[]>;
  result: CertifyMkpResult;
  report: CompatibilityReport;
  plugin: string;
  kind: 'mkp' | 'plugin-dir';
}

/** What the certificate of an agent-based package states; a package that changed meanwhile gets none. */
export async function packageCertificateFacts(input: PackageCertificateInput): Promise<CertificateFacts> {
  const after = await input.subjectsAfter();
  const key = (subjects: Subject[]) => subjects.map((s) => `${s.name} ${s.digest.sha256}`).join('\n');
  if (key(after) !== key(input.subjectsBefore))
    throw new HarnessError(
      '--certificate: the package changed while it was being certified; no certificate written',
    );
  return {
    subject: input.subjectsBefore,
    predicate: {
      report: input.report,
      plugin: { name: input.plugin, kind: input.kind },
      runs: mkpRuns(input.result),
      generated: input.result.generated ?? null,
      expectations: null,
      level: { absent: 'agent-based packages are judged by rules, not graded by level' },
      coverage: { absent: 'agent-based packages are judged by rules, not graded by coverage' },
      sandbox: statedSandbox(input.report),
    },
  };
}
