/**
 * The clause catalog (features/clauses.yaml) as typed data: the one list of rule ids that
 * scenarios cite with `@CLAUSE-ID` tags and reports are keyed by.
 */

/**
 * How a clause can be checked; `not-testable` clauses are reported, never asserted. `plugin`
 * clauses (prefix `PLUGIN`) are judged by `certify-plugin` on a vendor's plug-in runs, not on the
 * PBX; scenarios in features/certify/ prove that the judge tells a plug-in that keeps the rule
 * from one that breaks it.
 */
export type CheckKind = 'black-box' | 'control' | 'client' | 'plugin' | 'not-testable';

export const CHECK_KINDS: readonly CheckKind[] = ['black-box', 'control', 'client', 'plugin', 'not-testable'];

/** `plugin` clauses only: a broken `must` rule fails a certification, a broken `should` rule warns. */
export type ClauseLevel = 'must' | 'should';

export const CLAUSE_LEVELS: readonly ClauseLevel[] = ['must', 'should'];

export interface Clause {
  /** Stable UPPER-KEBAB id, e.g. `MON-TEXT-AGENT-SECTION`. */
  id: string;
  /** The spec file the rule comes from, e.g. `monitoring-endpoint-and-xmlrpc.md`. */
  spec: string;
  /** Heading path in that spec, "Heading / Subheading". */
  section: string;
  /** The rule in one sentence. */
  rule: string;
  check: CheckKind;
  property: boolean;
  /** Set on `plugin` clauses only (and required there). */
  level?: ClauseLevel;
}

/** A place the spec leaves open; scenarios must not assert it. */
export interface UnspecifiedEntry {
  id: string;
  spec: string;
  what: string;
}

export interface Catalog {
  version: number;
  /** `sha256:` and 12 hex digits of the catalog file's text (src/core/tool-version.ts `fingerprint`). */
  fingerprint: string;
  clauses: Clause[];
  unspecified: UnspecifiedEntry[];
}

/** The interface prefix of an id: the part before the first `-` (`MON-TEXT-X` → `MON`). */
export function clausePrefix(id: string): string {
  const dash = id.indexOf('-');
  return dash < 0 ? id : id.slice(0, dash);
}

/** The interface prefixes in catalog order (first appearance). */
export function catalogPrefixes(catalog: Catalog): string[] {
  const prefixes = new Set<string>();
  for (const clause of catalog.clauses) prefixes.add(clausePrefix(clause.id));
  for (const entry of catalog.unspecified) prefixes.add(clausePrefix(entry.id));
  return [...prefixes];
}
