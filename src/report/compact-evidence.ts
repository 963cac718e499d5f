import { createHash } from 'node:crypto';
import { COMPACT_HEAD_BYTES, type CompactEvidence, type ReportEvidence } from './attachments.ts';

/** How a report keeps the evidence of passing scenarios: compact (the default) or in full. */
export type EvidenceForm = 'compact' | 'full';

/**
 * The compact form of a passing scenario's evidence (issue 29, item 17): each exchange keeps its
 * line, sizes and the SHA-256 of its full form; the first keeps the head of its response. An entry
 * already compact (a merged shard's) stays as it is.
 */
export function compactEvidence(evidence: readonly ReportEvidence[]): ReportEvidence[] {
  return evidence.map((item, index): ReportEvidence => {
    if ('form' in item && item.form === 'compact') return item;
    const { exchange, request, response, details } = item;
    const compact: CompactEvidence = {
      exchange,
      form: 'compact',
      sha256: createHash('sha256')
        .update(JSON.stringify({ exchange, request, response, details }))
        .digest('hex'),
    };
    if (request !== undefined) compact.requestBytes = Buffer.byteLength(request);
    if (response !== undefined) compact.responseBytes = Buffer.byteLength(response);
    if (details !== undefined) compact.detailsBytes = Buffer.byteLength(JSON.stringify(details));
    const shown = response ?? request;
    if (index === 0 && shown !== undefined && shown.length > 0)
      compact.head = utf8Head(shown, COMPACT_HEAD_BYTES);
    return compact;
  });
}

/** The longest start of `text` that is at most `bytes` UTF-8 bytes, cut between characters. */
export function utf8Head(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  // A continuation byte (10xxxxxx) means the cut would split a character: step back to its start.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}
