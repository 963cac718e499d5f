import { XMLBuilder } from 'fast-xml-parser';
import { wellFormed } from './text-safety.ts';

/** Characters XML 1.0 does not allow at all, even escaped (C0 controls but TAB, LF, CR; U+FFFE/F). */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text that can go into an XML 1.0 document: lone surrogates and disallowed controls become U+FFFD. */
export function xmlSafe(text: string): string {
  return wellFormed(text).replace(NOT_XML, '\uFFFD');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * The one builder configuration of the XML renderers: attributes as `@_name`, text as `#text`,
 * empty elements self-closed, entities escaped (`&`, `<`, `>`, `"`, `'`), no pretty-printing.
 */
export function xmlBuilder(): XMLBuilder {
  return new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
    format: false,
  });
}
