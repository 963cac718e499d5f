import { XMLParser } from 'fast-xml-parser';
import { parseAgentText, parsePbxSections } from '../agent-text/index.ts';
import { MODELLED_SECTIONS } from './import-recording.ts';

/** How a difference is classed (issue 23, `record diff`). */
export type FindingClass = 'unspecified' | 'extension' | 'fidelity-defect' | 'changed';

export interface Finding {
  class: FindingClass;
  face: 'agent-text' | 'xml' | 'json' | 'local-document';
  /** Where: `<<<pbx>>> known_phones`, `pbx/appliance/type`, `$.peers[0].name`. */
  place: string;
  /** The clause the place falls under: for `unspecified` an id of an unspecified place, such as MON-UNSPEC-LINUX-SECTIONS. */
  clause: string;
  /** For `extension`: which side has it. */
  side?: 'recording' | 'simulator';
  recorded?: string;
  simulated?: string;
  note: string;
}

/** The faces of one side of a diff: the recording, or the simulator rendering its imported state. */
export interface DiffFaces {
  agentText?: string;
  xml?: string;
  json?: string;
  localDocument?: string;
}

export interface DiffOptions {
  /** `simulator`: B is the simulator (value differences are fidelity defects); `recording`: B is another recording. */
  against: 'simulator' | 'recording';
}

const KEY_VALUE = new Set([
  'pbx',
  'pbx_accounts',
  'pbx_database',
  'pbx_db_connections',
  'pbx_java',
  'pbx_calls',
]);
const SECTION_CLAUSE: Record<string, string> = {
  pbx: 'FIELD-PBX-VALUES-MATCH',
  pbx_backups: 'FIELD-BACKUP-LINE',
  pbx_channels: 'FIELD-CHANNELS-MAX-LINE',
  pbx_calls: 'MON-TEXT-PBX-CHANNELS',
  pbx_accounts: 'FIELD-ACCOUNTS-LINES',
  pbx_peers: 'FIELD-PEERS-SUMMARY',
  pbx_sip_provider: 'FIELD-SIP-PROVIDER-SUMMARY',
  pbx_modules: 'FIELD-MODULES-LINE',
  pbx_database: 'FIELD-DATABASE-CONNECTIONS',
  pbx_db_connections: 'MON-TEXT-PBX-DB-CONNECTIONS',
  pbx_java: 'FIELD-JAVA-LINES',
};
/** Fixed-width listings of the telephony engine: column widths are its own (MON-UNSPEC-LINE-GRAMMAR). */
const FIXED_WIDTH = new Set(['pbx_peers', 'pbx_sip_provider']);
const XML_UNSPEC_CHILDREN = /^pbx\/(appliance|security|java|raid)\//;

/**
 * The fidelity diff: the agent text section by section and line by line, the XML element by
 * element, the JSON path by path, the `local` document entry by entry. Each difference is
 * classed:
 * - `unspecified`: a place the specs leave open, with the id of that place: the Linux sections
 *   (MON-UNSPEC-LINUX-SECTIONS), the agent header (MON-UNSPEC-AGENT-HEADER), local-check texts
 *   (MON-UNSPEC-LOCAL-DETAILS), XML children (MON-UNSPEC-XML-CHILDREN) and JSON fields
 *   (MON-UNSPEC-JSON-FIELDS) the spec does not list, column widths of the engine's listings
 *   (MON-UNSPEC-LINE-GRAMMAR), texts of the `local` document (XMLRPC-UNSPEC-ENTRY-VALUES);
 * - `extension`: a line, key, section, element or field one side has and the other lacks
 *   (additive, FIELD-ADDITIVE-ONLY, MON-VERSIONING-ADDITIVE);
 * - `fidelity-defect` (against the simulator): the same place with another value or shape, i.e.
 *   the simulator, given the state imported from the recording, renders what the PBX did not;
 *   reported with the clause of the place;
 * - `changed` (two recordings): the same place with another value.
 */
export function diffFaces(recorded: DiffFaces, other: DiffFaces, options: DiffOptions): Finding[] {
  const findings: Finding[] = [];
  const valueClass: FindingClass = options.against === 'simulator' ? 'fidelity-defect' : 'changed';
  if (recorded.agentText !== undefined && other.agentText !== undefined)
    findings.push(...diffAgentText(recorded.agentText, other.agentText, valueClass, options));
  if (recorded.xml !== undefined && other.xml !== undefined)
    findings.push(...diffTree(XML_TREE, recorded.xml, other.xml, valueClass));
  if (recorded.json !== undefined && other.json !== undefined)
    findings.push(...diffTree(JSON_TREE, recorded.json, other.json, valueClass));
  if (recorded.localDocument !== undefined && other.localDocument !== undefined)
    findings.push(...diffLocalDocument(recorded.localDocument, other.localDocument, valueClass));
  return findings;
}

function sectionMap(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const section of parseAgentText(text).sections) {
    if (section.piggyback !== null) continue;
    const lines = map.get(section.name) ?? [];
    lines.push(...section.lines.filter((line) => line.trim() !== ''));
    map.set(section.name, lines);
  }
  return map;
}

function isLinux(name: string): boolean {
  return !MODELLED_SECTIONS.has(name) && !name.startsWith('pbx');
}

function diffAgentText(a: string, b: string, valueClass: FindingClass, options: DiffOptions): Finding[] {
  const findings: Finding[] = [];
  const left = sectionMap(a);
  const right = sectionMap(b);
  const names = [...new Set([...left.keys(), ...right.keys()])];
  const other = options.against === 'simulator' ? 'simulator' : 'recording';
  for (const name of names) {
    const place = `<<<${name}>>>`;
    const l = left.get(name);
    const r = right.get(name);
    if (!l || !r) {
      const side = l ? 'recording' : 'simulator';
      if (isLinux(name)) {
        findings.push({
          class: 'unspecified',
          face: 'agent-text',
          place,
          clause: 'MON-UNSPEC-LINUX-SECTIONS',
          note: `Linux section only in the ${l ? 'recording' : other}`,
        });
      } else {
        findings.push({
          class: 'extension',
          face: 'agent-text',
          place,
          clause: 'FIELD-ADDITIVE-ONLY',
          side,
          note: `section only in the ${l ? 'recording' : other}`,
        });
      }
      continue;
    }
    if (l.join('\n') === r.join('\n')) continue;
    if (isLinux(name)) {
      findings.push({
        class: 'unspecified',
        face: 'agent-text',
        place,
        clause: 'MON-UNSPEC-LINUX-SECTIONS',
        note: `${countDifferentLines(l, r)} line(s) differ`,
      });
    } else if (name === 'monitor_agent' || name === 'labels') {
      findings.push(...lineByLine(place, l, r, 'unspecified', 'MON-UNSPEC-AGENT-HEADER', other));
    } else if (name === 'local') {
      findings.push(...diffLocal(l, r, other));
    } else if (KEY_VALUE.has(name)) {
      findings.push(...diffKeyValues(name, l, r, valueClass, other));
    } else {
      findings.push(...diffListing(name, l, r, valueClass, other));
    }
  }
  if (options.against === 'recording') {
    const before = new Set(parsePbxSections(a).problems);
    for (const problem of parsePbxSections(b).problems) {
      if (!before.has(problem))
        findings.push({
          class: 'fidelity-defect',
          face: 'agent-text',
          place: problem.split(':')[0] ?? 'agent text',
          clause: 'FIELD-KEY-VALUE-LINES',
          note: `the second recording breaks the field grammar: ${problem}`,
        });
    }
  }
  return findings;
}

function countDifferentLines(a: string[], b: string[]): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

function lineByLine(
  place: string,
  a: string[],
  b: string[],
  cls: FindingClass,
  clause: string,
  other: string,
): Finding[] {
  const findings: Finding[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    findings.push({
      class: cls,
      face: 'agent-text',
      place: `${place} line ${i + 1}`,
      clause,
      ...(a[i] === undefined ? {} : { recorded: a[i] }),
      ...(b[i] === undefined ? {} : { simulated: b[i] }),
      note:
        a[i] === undefined
          ? `line only in the ${other}`
          : b[i] === undefined
            ? 'line only in the recording'
            : 'line differs',
    });
  }
  return findings;
}

/** `key value` lines by key (repeated keys such as `by_app` by key and position). */
function keyed(lines: string[]): { map: Map<string, string>; order: string[]; other: string[] } {
  const map = new Map<string, string>();
  const order: string[] = [];
  const other: string[] = [];
  const seen = new Map<string, number>();
  let inRaidTable = false;
  for (const line of lines) {
    // The RAID controller's table after `raid_status` is verbatim, not `key value` (FIELD-PBX-KEYS).
    if (line.startsWith('raid_diagnosis ')) inRaidTable = false;
    const match = inRaidTable ? null : /^([a-z][a-z0-9_]*) (.*)$/.exec(line);
    if (line === 'raid_status' || line.startsWith('raid_status ')) inRaidTable = true;
    if (!match) {
      other.push(line);
      continue;
    }
    const base = match[1]!;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const key = n === 1 ? base : `${base}#${n}`;
    map.set(key, match[2]!);
    order.push(key);
  }
  return { map, order, other };
}

function diffKeyValues(
  name: string,
  a: string[],
  b: string[],
  valueClass: FindingClass,
  other: string,
): Finding[] {
  const findings: Finding[] = [];
  const left = keyed(a);
  const right = keyed(b);
  const clause = SECTION_CLAUSE[name] ?? 'MON-TEXT-PBX';
  for (const key of new Set([...left.order, ...right.order])) {
    const l = left.map.get(key);
    const r = right.map.get(key);
    const place = `<<<${name}>>> ${key}`;
    if (l === undefined || r === undefined) {
      findings.push({
        class: 'extension',
        face: 'agent-text',
        place,
        clause: 'FIELD-ADDITIVE-ONLY',
        side: l === undefined ? 'simulator' : 'recording',
        ...(l === undefined ? {} : { recorded: l }),
        ...(r === undefined ? {} : { simulated: r }),
        note: `key only in the ${l === undefined ? other : 'recording'}`,
      });
    } else if (l !== r) {
      findings.push({
        class: valueClass,
        face: 'agent-text',
        place,
        clause,
        recorded: l,
        simulated: r,
        note: 'value differs',
      });
    }
  }
  const common = left.order.filter((key) => right.map.has(key));
  const commonRight = right.order.filter((key) => left.map.has(key));
  if (name === 'pbx' && common.join() !== commonRight.join()) {
    findings.push({
      class: valueClass,
      face: 'agent-text',
      place: '<<<pbx>>> key order',
      clause: 'FIELD-PBX-KEYS',
      recorded: common.join(' '),
      simulated: commonRight.join(' '),
      note: 'the keys both sides have come in another order',
    });
  }
  findings.push(
    ...lineByLine(`<<<${name}>>> (lines without a key)`, left.other, right.other, valueClass, clause, other),
  );
  return findings;
}

function diffListing(
  name: string,
  a: string[],
  b: string[],
  valueClass: FindingClass,
  other: string,
): Finding[] {
  const findings: Finding[] = [];
  const clause = SECTION_CLAUSE[name] ?? 'MON-VERSIONING-ADDITIVE';
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const l = a[i];
    const r = b[i];
    if (l === r) continue;
    const place = `<<<${name}>>> line ${i + 1}`;
    if (l !== undefined && r !== undefined && FIXED_WIDTH.has(name) && squeeze(l) === squeeze(r)) {
      findings.push({
        class: 'unspecified',
        face: 'agent-text',
        place,
        clause: 'MON-UNSPEC-LINE-GRAMMAR',
        recorded: l,
        simulated: r,
        note: 'only the column widths of the engine listing differ',
      });
      continue;
    }
    findings.push({
      class: valueClass,
      face: 'agent-text',
      place,
      clause,
      ...(l === undefined ? {} : { recorded: l }),
      ...(r === undefined ? {} : { simulated: r }),
      note:
        l === undefined
          ? `line only in the ${other}`
          : r === undefined
            ? 'line only in the recording'
            : 'line differs',
    });
  }
  return findings;
}

function squeeze(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

/** Local checks by service name (MON-UNSPEC-LOCAL-DETAILS: status rules, metrics and texts). */
function diffLocal(a: string[], b: string[], other: string): Finding[] {
  const byService = (lines: string[]) => {
    const map = new Map<string, string>();
    for (const line of lines) map.set(/^\S+ "([^"]*)"/.exec(line)?.[1] ?? line, line);
    return map;
  };
  const left = byService(a);
  const right = byService(b);
  const findings: Finding[] = [];
  for (const service of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(service);
    const r = right.get(service);
    if (l === r) continue;
    const place = `<<<local>>> "${service}"`;
    if (l === undefined || r === undefined) {
      findings.push({
        class: 'extension',
        face: 'agent-text',
        place,
        clause: 'MON-VERSIONING-ADDITIVE',
        side: l === undefined ? 'simulator' : 'recording',
        ...(l === undefined ? {} : { recorded: l }),
        ...(r === undefined ? {} : { simulated: r }),
        note: `service only in the ${l === undefined ? other : 'recording'}`,
      });
    } else {
      findings.push({
        class: 'unspecified',
        face: 'agent-text',
        place,
        clause: 'MON-UNSPEC-LOCAL-DETAILS',
        recorded: l,
        simulated: r,
        note: 'status, metrics or text differ',
      });
    }
  }
  return findings;
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

function flatten(value: unknown, path: string, out: Map<string, string>, separator: '/' | '.'): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, '[]');
    for (const [index, item] of value.entries()) flatten(item, `${path}[${index}]`, out, separator);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.set(path, '{}');
    for (const [key, child] of entries)
      flatten(child, path === '' ? key : `${path}${separator}${key}`, out, separator);
  } else {
    out.set(path, value === null ? 'null' : String(value));
  }
}

/** What the tree walker needs to know of a document face: how to read it and which clauses judge it. */
interface TreeFace {
  face: 'xml' | 'json';
  parse(text: string): unknown;
  /** The path of the root and the separator of a child's name. */
  root: string;
  separator: '/' | '.';
  /** Where, under which clause and with which words a document that does not parse is reported. */
  malformed: { place: string; clause: string; note: string };
  /** The clause that leaves the children at `path` open, if one does. */
  unspecifiedFor(path: string): string | undefined;
  /** The clause a differing value breaks. */
  clause: string;
}

const XML_TREE: TreeFace = {
  face: 'xml',
  parse: (text) => xmlParser.parse(text),
  root: '',
  separator: '/',
  malformed: { place: 'document', clause: 'MON-XML-ROOT', note: 'not well-formed' },
  unspecifiedFor: (path) =>
    XML_UNSPEC_CHILDREN.test(path.replace(/\[\d+\]/g, '')) ? 'MON-UNSPEC-XML-CHILDREN' : undefined,
  clause: 'MON-XML-CHILDREN',
};

const JSON_TREE: TreeFace = {
  face: 'json',
  parse: (text) => JSON.parse(text),
  root: '$',
  separator: '.',
  malformed: { place: '$', clause: 'MON-JSON-OBJECT', note: 'not JSON' },
  unspecifiedFor: () => 'MON-UNSPEC-JSON-FIELDS',
  clause: 'MON-JSON-OBJECT',
};

/** The one tree walker of the XML and JSON faces: both documents flattened to paths, then compared. */
function diffTree(tree: TreeFace, a: string, b: string, valueClass: FindingClass): Finding[] {
  const left = new Map<string, string>();
  const right = new Map<string, string>();
  try {
    flatten(tree.parse(a), tree.root, left, tree.separator);
    flatten(tree.parse(b), tree.root, right, tree.separator);
  } catch (error) {
    const { place, clause, note } = tree.malformed;
    return [
      { class: valueClass, face: tree.face, place, clause, note: `${note}: ${(error as Error).message}` },
    ];
  }
  return diffPaths(tree.face, left, right, valueClass, tree.unspecifiedFor, tree.clause);
}

/** Paths only on one side: `unspecified` where the spec does not list the children, else `extension`. */
function diffPaths(
  face: 'xml' | 'json',
  left: Map<string, string>,
  right: Map<string, string>,
  valueClass: FindingClass,
  unspecifiedFor: (path: string) => string | undefined,
  clause: string,
): Finding[] {
  const findings: Finding[] = [];
  for (const path of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(path);
    const r = right.get(path);
    if (l === r) continue;
    if (l === undefined || r === undefined) {
      const unspec = unspecifiedFor(path);
      findings.push({
        class: unspec ? 'unspecified' : 'extension',
        face,
        place: path,
        clause: unspec ?? 'MON-VERSIONING-ADDITIVE',
        ...(unspec ? {} : { side: l === undefined ? ('simulator' as const) : ('recording' as const) }),
        ...(l === undefined ? {} : { recorded: l }),
        ...(r === undefined ? {} : { simulated: r }),
        note: `only in the ${l === undefined ? 'other side' : 'recording'}`,
      });
    } else {
      findings.push({
        class: valueClass,
        face,
        place: path,
        clause,
        recorded: l,
        simulated: r,
        note: 'value differs',
      });
    }
  }
  return findings;
}

/** The `local` document entry by entry (key and position among entries of that key). */
function diffLocalDocument(a: string, b: string, valueClass: FindingClass): Finding[] {
  const entries = (xml: string) => {
    const map = new Map<string, Record<string, unknown>>();
    const parsed = xmlParser.parse(xml) as { local?: { entry?: unknown } };
    const list = parsed.local?.entry;
    const items = Array.isArray(list) ? list : list ? [list] : [];
    const seen = new Map<string, number>();
    for (const item of items as Record<string, unknown>[]) {
      const key = String(item['@key'] ?? '');
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      map.set(`${key}#${n}`, item);
    }
    return map;
  };
  let left: Map<string, Record<string, unknown>>;
  let right: Map<string, Record<string, unknown>>;
  try {
    left = entries(a);
    right = entries(b);
  } catch (error) {
    return [
      {
        class: valueClass,
        face: 'local-document',
        place: 'local',
        clause: 'XMLRPC-GMDX-RETURN',
        note: (error as Error).message,
      },
    ];
  }
  const findings: Finding[] = [];
  for (const key of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(key);
    const r = right.get(key);
    if (!l || !r) {
      findings.push({
        class: 'extension',
        face: 'local-document',
        place: `entry ${key}`,
        clause: 'XMLRPC-GMDX-RETURN',
        side: l ? 'recording' : 'simulator',
        note: `entry only in the ${l ? 'recording' : 'other side'}`,
      });
      continue;
    }
    if (String(l['status']) !== String(r['status'])) {
      findings.push({
        class: valueClass,
        face: 'local-document',
        place: `entry ${key} status`,
        clause: 'XMLRPC-GMDX-RETURN',
        recorded: String(l['status']),
        simulated: String(r['status']),
        note: 'status differs',
      });
    }
    for (const child of ['name', 'value', 'string']) {
      if (String(l[child]) !== String(r[child]))
        findings.push({
          class: 'unspecified',
          face: 'local-document',
          place: `entry ${key} ${child}`,
          clause: 'XMLRPC-UNSPEC-ENTRY-VALUES',
          recorded: String(l[child]),
          simulated: String(r[child]),
          note: `${child} differs`,
        });
    }
  }
  return findings;
}
