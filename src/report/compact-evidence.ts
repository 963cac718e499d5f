import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { COMPACT_HEAD_BYTES, type CompactEvidence, type ReportEvidence } from './attachments.ts';
import type { PackedEvidenceHeads } from './model.ts';

/** How a report keeps the evidence of passing scenarios: compact (the default) or in full. */
export type EvidenceForm = 'compact' | 'full';

/**
 * The distinct heads of a report's compact evidence, each once, keyed by the SHA-256 (hex) of its
 * UTF-8 text (issue 29, item 17): the report's `evidenceHeads`.
 */
export class EvidenceHeads {
  private readonly heads = new Map<string, string>();

  /** Heads a report already holds (a merged shard's), kept as they are. */
  constructor(known: Readonly<Record<string, string>> = {}) {
    for (const [key, head] of Object.entries(known)) this.heads.set(key, head);
  }

  /** Keeps `head` once and returns its key. */
  add(head: string): string {
    const key = sha256Hex(head);
    this.heads.set(key, head);
    return key;
  }

  get(key: string): string | undefined {
    return this.heads.get(key);
  }

  get size(): number {
    return this.heads.size;
  }

  /** The heads that `scenarios` refer to, by key in sorted order (what the report writes). */
  referencedBy(scenarios: Iterable<{ evidence: readonly ReportEvidence[] }>): Record<string, string> {
    const used = new Set<string>();
    for (const s of scenarios)
      for (const item of s.evidence) if ('headSha256' in item && item.headSha256) used.add(item.headSha256);
    const table: Record<string, string> = {};
    for (const key of [...used].sort()) {
      const head = this.heads.get(key);
      if (head !== undefined) table[key] = head;
    }
    return table;
  }
}

/**
 * The compact form of a passing scenario's evidence (issue 29, item 17): each exchange keeps its
 * line, sizes and the SHA-256 of its full form; the first keeps the head of its response, once in
 * `heads`, named by its key. An entry already compact (a merged shard's) stays as it is, but an
 * inline `head` of an earlier report moves into `heads` too.
 */
export function compactEvidence(evidence: readonly ReportEvidence[], heads: EvidenceHeads): ReportEvidence[] {
  return evidence.map((item, index): ReportEvidence => {
    if ('form' in item && item.form === 'compact') {
      if (item.head === undefined) return item;
      const { head, ...rest } = item;
      return { ...rest, headSha256: heads.add(head) };
    }
    const { exchange, request, response, details } = item;
    const compact: CompactEvidence = {
      exchange,
      form: 'compact',
      sha256: sha256Hex(JSON.stringify({ exchange, request, response, details })),
    };
    if (request !== undefined) compact.requestBytes = Buffer.byteLength(request);
    if (response !== undefined) compact.responseBytes = Buffer.byteLength(response);
    if (details !== undefined) compact.detailsBytes = Buffer.byteLength(JSON.stringify(details));
    const shown = response ?? request;
    if (index === 0 && shown !== undefined && shown.length > 0)
      compact.headSha256 = heads.add(utf8Head(shown, COMPACT_HEAD_BYTES));
    return compact;
  });
}

/**
 * The report's table of distinct evidence heads, when any compact evidence refers to one: packed
 * as the base64 of the gzip of their JSON object. Measured on the embedded run: 331 distinct heads
 * of 2 KiB are 542 KB as JSON text, 52 KB gzipped (they share status lines, headers and sections).
 */
export function evidenceHeadsOf(
  heads: EvidenceHeads,
  scenarios: Iterable<{ evidence: readonly ReportEvidence[] }>,
): { evidenceHeads?: PackedEvidenceHeads } {
  const table = heads.referencedBy(scenarios);
  const count = Object.keys(table).length;
  if (count === 0) return {};
  const data = gzipSync(JSON.stringify(table), { level: 9 }).toString('base64');
  return { evidenceHeads: { encoding: 'gzip+base64', count, data } };
}

/** The heads a report holds, by key (`{}` without any); throws on a table that does not unpack. */
export function readEvidenceHeads(report: {
  evidenceHeads?: PackedEvidenceHeads | undefined;
}): Record<string, string> {
  const packed = report.evidenceHeads;
  if (packed === undefined) return {};
  const table: unknown = JSON.parse(gunzipSync(Buffer.from(packed.data, 'base64')).toString('utf8'));
  if (typeof table !== 'object' || table === null || Array.isArray(table))
    throw new TypeError('evidenceHeads does not unpack to an object');
  for (const value of Object.values(table))
    if (typeof value !== 'string') throw new TypeError('evidenceHeads holds a head that is no text');
  return table as Record<string, string>;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
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
