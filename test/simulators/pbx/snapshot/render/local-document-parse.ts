import { XMLParser } from 'fast-xml-parser';

export interface ParsedEntry {
  key: string;
  status: string;
  name: string;
  value: string;
  string: string;
}

/** Reads a `local` document back: entries in document order, every value as text. */
export function parseLocalDocument(xml: string): ParsedEntry[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (name) => name === 'entry',
  });
  const doc = parser.parse(xml) as { local?: { entry?: Record<string, unknown>[] } };
  return (doc.local?.entry ?? []).map((e) => ({
    key: String(e['@_key']),
    status: String(e['status'] ?? ''),
    name: String(e['name'] ?? ''),
    value: String(e['value'] ?? ''),
    string: String(e['string'] ?? ''),
  }));
}
