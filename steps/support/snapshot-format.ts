import { findJsonFields } from './snapshot-values.ts';
import { parseXmlDocument } from './xml-document.ts';

/** The three snapshot formats as scenarios name them. */
export type SnapshotKind = 'agent text' | 'XML snapshot' | 'JSON snapshot';

export const SNAPSHOT_KINDS: readonly SnapshotKind[] = ['agent text', 'XML snapshot', 'JSON snapshot'];

/** The format tokens of path and query (`checkmk` is the agent text's, MON-QUERY-FORMAT). */
export const FORMAT_TOKEN: Record<SnapshotKind, string> = {
  'agent text': 'checkmk',
  'XML snapshot': 'xml',
  'JSON snapshot': 'json',
};

export function kindOfToken(token: string): SnapshotKind | undefined {
  return SNAPSHOT_KINDS.find((k) => FORMAT_TOKEN[k] === token);
}

/**
 * Which snapshot a body is, by content alone: agent text starts with `<<<monitor_agent>>>`
 * (MON-TEXT-BLOCK-ORDER), the XML snapshot is a document with root `pbx` (MON-XML-ROOT), the JSON
 * snapshot is an object carrying a field of the listed snapshot model (MON-JSON-OBJECT).
 */
export function classifySnapshot(body: Buffer | string): SnapshotKind | 'other' {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.startsWith('<<<monitor_agent>>>')) return 'agent text';
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) {
    const xml = parseXmlDocument(text);
    return xml.ok && xml.root.name === 'pbx' ? 'XML snapshot' : 'other';
  }
  if (trimmed.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
      return isObject && findJsonFields(value, 'pbxVersion').length > 0 ? 'JSON snapshot' : 'other';
    } catch {
      return 'other';
    }
  }
  return 'other';
}
