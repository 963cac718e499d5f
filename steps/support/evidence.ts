import { type EvidenceAttachment, MAX_EVIDENCE_CHARS } from '../../src/report/attachments.ts';

/** Cuts `text` to MAX_EVIDENCE_CHARS, saying how much was left off. */
export function truncateEvidence(text: string): string {
  if (text.length <= MAX_EVIDENCE_CHARS) return text;
  const note = `\n… [${text.length - MAX_EVIDENCE_CHARS} more characters]`;
  return text.slice(0, MAX_EVIDENCE_CHARS - note.length) + note;
}

/** Bytes as evidence text: UTF-8 where valid, otherwise a hex dump of the start. */
export function bytesAsEvidence(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `[${bytes.length} bytes, not UTF-8] ${bytes.subarray(0, 256).toString('hex')}`;
  }
}

/** An evidence attachment with every text field truncated. */
export function boundedEvidence(evidence: EvidenceAttachment): EvidenceAttachment {
  const bounded: EvidenceAttachment = { exchange: evidence.exchange };
  if (evidence.request !== undefined) bounded.request = truncateEvidence(evidence.request);
  if (evidence.response !== undefined) bounded.response = truncateEvidence(evidence.response);
  if (evidence.details !== undefined) bounded.details = evidence.details;
  return bounded;
}
