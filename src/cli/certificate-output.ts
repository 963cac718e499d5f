import { existsSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { PredicateInput } from '../certificate/certification-predicate.ts';
import type { SigningKey } from '../certificate/signing-key.ts';
import type { Subject } from '../certificate/statement.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import type { CliIo } from './cli-io.ts';
import { shownPath } from './shown-path.ts';

/** certify-plugin's certificate options (docs/certificate.md). */
export interface CertificateOutputOptions {
  certificate?: string;
  signKey?: string;
  badge?: string;
}

/** Where the certificate and badge go and the key that signs, all checked before any run. */
export interface PreparedCertificate {
  file: string;
  badge: string | null;
  key: SigningKey | null;
}

/** What a certificate states: the certified files and everything the predicate is built from. */
export interface CertificateFacts {
  subject: Subject[];
  predicate: PredicateInput;
}

/**
 * Checks `--certificate`, `--badge` and `--sign-key` before the certification starts (the CLI
 * checks what it will write before it starts): the files' folders are writable, neither names a
 * folder, and the key is an Ed25519 private key. `null` without `--certificate`.
 */
export async function prepareCertificate(
  options: CertificateOutputOptions,
  io: CliIo,
): Promise<PreparedCertificate | null> {
  if (options.certificate === undefined) {
    if (options.signKey !== undefined)
      throw new HarnessError('--sign-key signs a certificate: give --certificate FILE');
    if (options.badge !== undefined)
      throw new HarnessError('--badge shows a certificate: give --certificate FILE with it');
    return null;
  }
  const file = resolve(io.cwd, options.certificate);
  const badge = options.badge === undefined ? null : resolve(io.cwd, options.badge);
  if (badge === file) throw new HarnessError('--certificate and --badge name the same file');
  for (const [path, label] of [
    [file, `--certificate ${options.certificate}`],
    ...(badge ? [[badge, `--badge ${options.badge}`] as const] : []),
  ] as const) {
    if (existsSync(path) && statSync(path).isDirectory()) throw new HarnessError(`${label} is a folder`);
    await ensureWritableDir(dirname(path), `${label}: folder`).catch((error: unknown) => {
      throw new HarnessError(oneLineMessage(error));
    });
  }
  let key: SigningKey | null = null;
  if (options.signKey !== undefined) {
    let pem: Buffer;
    try {
      pem = await readFile(resolve(io.cwd, options.signKey));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new HarnessError(
        `--sign-key ${options.signKey} cannot be read (${code === 'ENOENT' ? 'not found' : code})`,
      );
    }
    const { signingKeyFromPem } = await import('../certificate/signing-key.ts');
    try {
      key = signingKeyFromPem(pem, `--sign-key ${options.signKey}`);
    } catch (error) {
      throw new HarnessError(oneLineMessage(error));
    }
  }
  return { file, badge, key };
}

/**
 * Writes the certificate (and badge) of a passed certification and returns the summary lines.
 * A certification that did not pass gets none: a certificate or badge left at those paths by an
 * earlier run is removed, so that a CI step cannot ship it as this run's.
 */
export async function settleCertificate(
  prepared: PreparedCertificate,
  passed: boolean,
  facts: () => Promise<CertificateFacts>,
  io: CliIo,
): Promise<string[]> {
  const shown = (path: string) => shownPath(io.cwd, path);
  const targets = [prepared.file, ...(prepared.badge ? [prepared.badge] : [])];
  if (!passed) {
    const stale = targets.filter((path) => existsSync(path));
    for (const path of stale) await rm(path, { force: true });
    return [
      `  certificate: none, the certification did not pass${stale.length > 0 ? ` (removed the earlier ${stale.map(shown).join(', ')})` : ''}`,
    ];
  }
  const { subject, predicate } = await facts();
  const { certificationPredicate } = await import('../certificate/certification-predicate.ts');
  const { issueCertificate } = await import('../certificate/issue-certificate.ts');
  const full = certificationPredicate(predicate);
  await writeFile(prepared.file, issueCertificate(subject, full, prepared.key));
  const lines = [
    `  certificate: ${shown(prepared.file)} (${subject.length} file(s), ${
      prepared.key
        ? `signed with Ed25519 key ${prepared.key.keyId.slice(0, 16)}…`
        : 'UNSIGNED: give --sign-key key.pem to sign it'
    })`,
  ];
  if (prepared.badge) {
    const { certificateBadge, badgeMessage } = await import('../certificate/certificate-badge.ts');
    await writeFile(prepared.badge, certificateBadge(full));
    lines.push(`  badge: ${shown(prepared.badge)} (PBX certified | ${badgeMessage(full)})`);
  }
  return lines;
}
