import type { RecordedRequest } from '../../../simulators/customer-endpoint/index.ts';
import { bytesAsEvidence } from '../../support/evidence.ts';

/** Header names whose values are credentials: evidence shows the scheme only. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** `Basic dXNlcjpwdw==` → `Basic <redacted 12 chars>`: evidence never carries a credential. */
export function redactCredential(value: string): string {
  const m = /^(\S+)(\s+)(.*)$/s.exec(value);
  if (!m) return `<redacted ${value.length} chars>`;
  return `${m[1]}${m[2]}<redacted ${(m[3] as string).length} chars>`;
}

/** One recorded request as evidence text: request line, headers (credentials redacted), body. */
export function describeRecord(record: RecordedRequest): string {
  const lines = [
    `#${record.seq} ${record.method} ${record.target} HTTP/${record.httpVersion}${record.tlsProtocol ? ` (${record.tlsProtocol})` : ''} → ${record.status ?? 'no answer'}${record.responseContentEncoding ? ` (${record.responseContentEncoding})` : ''} (auth ${record.auth})`,
  ];
  for (const [name, value] of record.headers)
    lines.push(`${name}: ${CREDENTIAL_HEADERS.has(name.toLowerCase()) ? redactCredential(value) : value}`);
  if (record.body.length > 0) lines.push('', bytesAsEvidence(record.body));
  return lines.join('\n');
}

/**
 * Replaces each secret, as written and percent-encoded, by `***`: a scenario may put a password
 * into the URL through a placeholder, and evidence must not carry it.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) masked = masked.split(form).join('***');
  }
  return masked;
}

/** Every recorded request of one endpoint as evidence text, with the given secrets masked. */
export function describeRecords(
  name: string,
  records: readonly RecordedRequest[],
  secrets: readonly string[] = [],
): string {
  if (records.length === 0) return `customer endpoint "${name}": no request`;
  const text = [`customer endpoint "${name}": ${records.length} request(s)`, ...records.map(describeRecord)];
  return maskSecrets(text.join('\n\n'), secrets);
}
