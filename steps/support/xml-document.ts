import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element of a parsed XML document: name, attributes, child elements and its own text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text directly inside the element (not of its children), untrimmed. */
  text: string;
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; error: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Checks well-formedness, then parses into an element tree (the document element is `root`). */
export function parseXmlDocument(text: string): XmlParseResult {
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    return { ok: false, error: `${valid.err.code}: ${valid.err.msg} (line ${valid.err.line})` };
  const nodes = parser.parse(text) as OrderedNode[];
  const elements = nodes.map(toElement).filter((e): e is XmlElement => e !== undefined);
  if (elements.length !== 1)
    return { ok: false, error: `expected one document element, found ${elements.length}` };
  return { ok: true, root: elements[0]! };
}

function toElement(node: OrderedNode): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '#comment');
  if (name === undefined) return undefined;
  const content = (node[name] as OrderedNode[] | undefined) ?? [];
  const children: XmlElement[] = [];
  let text = '';
  for (const child of content) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const element = toElement(child);
      if (element) children.push(element);
    }
  }
  return { name, attributes: { ...(node[':@'] ?? {}) }, children, text };
}

/** Direct children named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}

/** The first direct child named `name`. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

/** True for an element without child elements and without non-whitespace text. */
export function isEmptyElement(element: XmlElement): boolean {
  return element.children.length === 0 && element.text.trim() === '';
}
