import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { EXIT_CONFORMANCE_FAILURE, EXIT_PASSED } from '../core/exit-codes.ts';
import { HarnessError } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';

export interface CertificateVerifyOptions {
  plugin?: string[];
  key?: string;
  requireLevel?: 'form' | 'state' | 'values';
  allowUnsigned?: boolean;
}

/**
 * `certificate verify FILE` and `certificate show FILE` (docs/certificate.md): check a certificate
 * that `certify-plugin --certificate` wrote, and say what it states. verify exits 0 when it holds,
 * 1 when it does not (with every reason), 2 when an input cannot be read.
 */
export function registerCertificate(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  const certificate = program
    .command('certificate')
    .description('check or show a plug-in certificate (certify-plugin --certificate; docs/certificate.md)');
  certificate
    .command('verify')
    .description(
      'check a certificate: envelope, signature, a passed certification, the catalog, the given files, the level',
    )
    .argument('<file>', 'the certificate (a DSSE envelope holding an in-toto Statement)')
    .option('--plugin <path...>', 'files (or folders of files) that must be certified, each by its SHA-256')
    .option('--key <pub.pem>', "the signer's Ed25519 public key (PEM)")
    .addOption(
      new Option('--require-level <level>', 'the least level the certificate must state').choices([
        'form',
        'state',
        'values',
      ]),
    )
    .option(
      '--allow-unsigned',
      'accept a certificate whose signature is not checked (unsigned, or no --key): only from a channel you trust',
    )
    .action(async (file: string, options: CertificateVerifyOptions) => {
      done(await certificateVerifyCommand(file, options, io));
    });
  certificate
    .command('show')
    .description('say what a certificate states, in plain words (the signature is not checked)')
    .argument('<file>', 'the certificate')
    .action(async (file: string) => {
      done(await certificateShowCommand(file, io));
    });
}

async function readInput(path: string, label: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(`${label} cannot be read (${code === 'ENOENT' ? 'not found' : code})`);
  }
}

/** The files `--plugin` names, a folder standing for every file in it. */
async function pluginFiles(paths: string[], cwd: string): Promise<{ label: string; bytes: Buffer }[]> {
  const { folderSubjects } = await import('../certificate/plugin-subjects.ts');
  const files: { label: string; bytes: Buffer }[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) {
      const inside = await folderSubjects(path);
      if (inside.length === 0) throw new HarnessError(`--plugin ${given} is an empty folder`);
      for (const subject of inside)
        files.push({
          label: subject.name,
          bytes: await readInput(resolve(path, '..', subject.name), subject.name),
        });
    } else files.push({ label: given, bytes: await readInput(path, `--plugin ${given}`) });
  }
  return files;
}

export async function certificateVerifyCommand(
  file: string,
  options: CertificateVerifyOptions,
  io: CliIo,
): Promise<number> {
  const certificate = await readInput(resolve(io.cwd, file), `certificate ${file}`);
  const files = await pluginFiles(options.plugin ?? [], io.cwd);
  let key = null;
  if (options.key !== undefined) {
    const { verifyKeyFromPem } = await import('../certificate/signing-key.ts');
    const pem = await readInput(resolve(io.cwd, options.key), `--key ${options.key}`);
    try {
      key = verifyKeyFromPem(pem, `--key ${options.key}`);
    } catch (error) {
      throw new HarnessError((error as Error).message);
    }
  }
  const { verifyCertificate, short } = await import('../certificate/verify-certificate.ts');
  const { versionInfo } = await import('../core/tool-version.ts');
  const verdict = verifyCertificate({
    certificate,
    files,
    key,
    allowUnsigned: options.allowUnsigned === true,
    requireLevel: options.requireLevel ?? null,
    knownCatalogs: [versionInfo().catalog.fingerprint],
  });
  if (!verdict.holds) {
    io.stdout.write(
      [`certificate verify ${file}: does not hold`, ...verdict.reasons.map((r) => `  - ${r}`), ''].join('\n'),
    );
    return EXIT_CONFORMANCE_FAILURE;
  }
  const { predicate, subject } = verdict.statement;
  const level = 'value' in predicate.level ? `level ${predicate.level.value}` : 'no level stated';
  const signature =
    verdict.signature === 'checked'
      ? `signed with key ${short(key?.keyId ?? '')}`
      : verdict.signature === 'unsigned'
        ? 'UNSIGNED (accepted with --allow-unsigned)'
        : 'signature NOT CHECKED (no --key; accepted with --allow-unsigned)';
  io.stdout.write(
    [
      `certificate verify ${file}: holds`,
      `  ${predicate.plugin.name}: certification ${predicate.result}, ${level}, catalog ${predicate.catalog.fingerprint}, ${signature}`,
      files.length > 0
        ? `  certified: ${files.map((f) => f.label).join(', ')}`
        : `  no --plugin given: the files were not compared (${subject.length} certified: ${subject.map((s) => s.name).join(', ')})`,
      '',
    ].join('\n'),
  );
  return EXIT_PASSED;
}

export async function certificateShowCommand(file: string, io: CliIo): Promise<number> {
  const bytes = await readInput(resolve(io.cwd, file), `certificate ${file}`);
  const { describeCertificate } = await import('../certificate/describe-certificate.ts');
  const { versionInfo } = await import('../core/tool-version.ts');
  const description = describeCertificate(bytes, [versionInfo().catalog.fingerprint]);
  if (!description.ok) throw new HarnessError(`certificate ${file}: ${description.reason}`);
  io.stdout.write(description.text);
  return EXIT_PASSED;
}
