import type { CertificationPredicate } from './certification-predicate.ts';
import { openEnvelope } from './envelope.ts';
import { readStatement } from './read-statement.ts';
import { short } from './verify-certificate.ts';

export type Description = { ok: true; text: string } | { ok: false; reason: string };

const KIND = {
  command: 'a check plug-in command',
  mkp: 'an agent-based Checkmk plug-in package (MKP)',
  'plugin-dir': 'an agent-based Checkmk plug-in folder',
} as const;

const LEVEL_WORDS = {
  form: 'form: its output keeps the monitoring-plug-in form',
  state: "state: its state also agrees with the PBX's own judgement",
  values: 'values: its figures also follow what the PBX served',
} as const;

/**
 * `certificate show`: what a certificate states, in plain words, and what it proves and does not.
 * It reads the envelope and the Statement without checking the signature (that is
 * `certificate verify --key`), and says so.
 */
export function describeCertificate(bytes: Buffer, knownCatalogs: readonly string[]): Description {
  const read = openEnvelope(bytes);
  if (!read.ok) return read;
  const parsed = readStatement(read.envelope.payloadType, read.envelope.body);
  if (!parsed.ok) return parsed;
  const { subject, predicate: p } = parsed.statement;
  const signatures = read.envelope.signatures;
  const width = Math.max(...subject.map((s) => s.name.length));
  const lines = [
    `Certificate of ${p.plugin.name}, ${KIND[p.plugin.kind]}${p.plugin.command ? `: ${p.plugin.command}` : ''}`,
    signatures.length === 0
      ? '  Unsigned: nothing in it proves who made it.'
      : `  Signed with Ed25519 key ${signatures.map((s) => short(s.keyid) || '(no key id)').join(', ')} (not checked here: certificate verify --key checks it).`,
    `  The certification ${p.result}${p.result === 'passed' ? '' : ' (certify-plugin writes no certificate for that: this one was made otherwise)'}, from ${p.startedAt} to ${p.finishedAt}.`,
    `  Level: ${'value' in p.level ? LEVEL_WORDS[p.level.value] : `not stated (${p.level.absent})`}.`,
    `  Coverage: ${'value' in p.coverage ? coverageWords(p.coverage.value) : `not stated (${p.coverage.absent})`}.`,
    `  The files it certifies (SHA-256):`,
    ...subject.map((s) => `    ${s.name.padEnd(width)}  ${s.digest.sha256}`),
    `  Judged by pbx-conformance ${p.tool.version} against clause catalog ${p.catalog.fingerprint}${
      knownCatalogs.includes(p.catalog.fingerprint)
        ? ' (the catalog of this version)'
        : ' (a catalog this version does not know)'
    }.`,
    `  Clauses: ${verdictWords(p.clauses)}.`,
    ...p.clauses
      .filter((c) => c.verdict !== 'pass')
      .map((c) => `    ${c.verdict.padEnd(14)} ${c.id}${c.level ? ` (${c.level})` : ''}`),
    `  Runs: ${runWords(p)}.`,
    `  Sandbox: ${'value' in p.sandbox ? sandboxWords(p.sandbox.value) : `not stated (${p.sandbox.absent})`}.`,
    `  Expectations: ${p.expectations ? `${p.expectations.name}, SHA-256 ${p.expectations.sha256}` : 'none (judged against what the PBX served alone)'}.`,
    "  What it proves, once certificate verify accepts it with the signer's key and your files: these",
    '  very files were judged so by this tool; not that a later version of them behaves the same.',
    '',
  ];
  return { ok: true, text: lines.join('\n') };
}

function verdictWords(clauses: CertificationPredicate['clauses']): string {
  const counts = new Map<string, number>();
  for (const c of clauses) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
  const parts = [...counts].map(([verdict, n]) => `${n} ${verdict === 'pass' ? 'passed' : verdict}`);
  return `${clauses.length} judged${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

function runWords(p: CertificationPredicate): string {
  const counts = new Map<string, number>();
  for (const r of p.runs) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const named = {
    catalog: 'catalog scenarios',
    generated: 'generated states',
    recording: 'recordings',
    'scenario-file': 'scenario files',
    extra: 'extra runs of single clauses',
  } as const;
  const parts = [...counts].map(([kind, n]) => `${n} ${named[kind as keyof typeof named]}`);
  const seed = p.generated ? `; generated states drawn with seed ${p.generated.seed}` : '';
  const broke = p.runs.filter((r) => r.outcome !== 'ok').length;
  return `${p.runs.length} (${parts.join(', ')}${seed}); ${broke === 0 ? 'none broke a rule' : `${broke} broke a rule or could not be set up`}`;
}

function coverageWords(value: Record<string, unknown>): string {
  const { declared, tracked, notTraced, watched, labels } = value;
  if ([declared, tracked, notTraced, watched, labels].every((n) => typeof n === 'number'))
    return `${labels} performance-data label(s): ${declared} declared, ${tracked} followed by figure tracking, ${notTraced} neither; ${watched} watched service(s)`;
  return Object.entries(value)
    .map(([key, v]) => `${key} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

function sandboxWords(value: Record<string, unknown>): string {
  const protections = Array.isArray(value['protections'])
    ? (value['protections'] as { name: string; present: boolean }[])
    : [];
  const absent = protections.filter((p) => !p.present).map((p) => p.name);
  return value['sealed'] === true
    ? `sealed${typeof value['tool'] === 'string' ? ` (${value['tool']})` : ''}: ${protections.map((p) => p.name).join(', ')}`
    : `NOT sealed${typeof value['reason'] === 'string' ? ` (${value['reason']})` : ''}; absent: ${absent.join(', ') || 'none named'}`;
}
