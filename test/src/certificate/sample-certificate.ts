import { generateKeyPairSync } from 'node:crypto';
import { loadCatalog } from '../../../src/catalog/load-catalog.ts';
import type { CertificationPredicate } from '../../../src/certificate/certification-predicate.ts';
import { issueCertificate } from '../../../src/certificate/issue-certificate.ts';
import { sha256Hex } from '../../../src/certificate/plugin-subjects.ts';
import { keyIdOf, type SigningKey, type VerifyKey } from '../../../src/certificate/signing-key.ts';
import { scenarioCatalog } from '../../../src/certify/scenario-catalog.ts';
import { versionInfo } from '../../../src/core/tool-version.ts';

/** A fresh Ed25519 key pair, as `--sign-key` and `--key` read them. */
export function freshKey(): SigningKey & VerifyKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** A plug-in's bytes. */
export const PLUGIN = Buffer.from(
  '#!/bin/sh\necho "PBX OK - 3 of 3 backups successful | backups_failed=0"\n',
);

/**
 * The predicate of a passed certification of `PLUGIN`: every PLUGIN clause of the shipped catalog
 * passed, every catalog scenario and 8 generated states run, this version's catalog.
 */
export async function passedPredicate(
  change: Partial<CertificationPredicate> = {},
): Promise<CertificationPredicate> {
  const catalog = await loadCatalog();
  const { fingerprint, format } = versionInfo().catalog;
  return {
    tool: { name: 'pbx-conformance', version: '0.1.0' },
    catalog: { format, fingerprint },
    plugin: { name: 'check_backups', kind: 'command', command: './check_backups.sh {host} {port}' },
    result: 'passed',
    level: { absent: 'not graded in this test' },
    coverage: { absent: 'not graded in this test' },
    clauses: catalog.clauses
      .filter((c) => c.id.startsWith('PLUGIN-'))
      .map((c) => ({ id: c.id, level: c.level ?? null, verdict: 'pass' as const })),
    runs: [
      ...scenarioCatalog().map((s) => ({ name: s.name, kind: 'catalog' as const, outcome: 'ok' as const })),
      ...Array.from({ length: 8 }, (_, i) => ({
        name: `generated #${i + 1}`,
        kind: 'generated' as const,
        outcome: 'ok' as const,
        stateSha256: sha256Hex(Buffer.from(`state ${i}`)),
      })),
    ],
    generated: { runs: 8, seed: 19 },
    sandbox: { absent: 'not graded in this test' },
    expectations: { name: 'check_backups.yaml', sha256: sha256Hex(Buffer.from('watches: [PBX Backup*]')) },
    startedAt: '2026-11-28T10:00:00.000Z',
    finishedAt: '2026-11-28T10:01:30.000Z',
    ...change,
  };
}

/** A certificate of `PLUGIN` with `predicate`, signed with `key` (null: unsigned), as its file's bytes. */
export function certificateOf(predicate: CertificationPredicate, key: SigningKey | null): Buffer {
  return Buffer.from(
    issueCertificate([{ name: 'check_backups.sh', digest: { sha256: sha256Hex(PLUGIN) } }], predicate, key),
  );
}

/** The envelope with its payload's Statement changed by `edit`, the signatures kept as they were. */
export function editPayload(certificate: Buffer, edit: (statement: Record<string, unknown>) => void): Buffer {
  const envelope = JSON.parse(certificate.toString('utf8')) as { payload: string };
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Record<
    string,
    unknown
  >;
  edit(statement);
  envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
  return Buffer.from(JSON.stringify(envelope));
}
