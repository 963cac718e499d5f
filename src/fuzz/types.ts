import type fc from 'fast-check';
import type { WireAnswer, WireRequest } from './wire.ts';

/** The faces `fuzz` knows, in the order it runs them. */
export const FACES = ['data', 'xmlrpc', 'maintenance', 'fleet', 'mcp'] as const;
export type FaceName = (typeof FACES)[number];

/** Where the faces of a target are and the credentials a good request needs. */
export interface FuzzTargetInfo {
  /** `embedded` or the target file's `name`. */
  name: string;
  targetFile: string | null;
  data?: { host: string; port: number; listedClient: string; unlistedClient?: string };
  xmlrpc?: { webUrl: string; path: string; instanceName: string; authParam: string; authValue: string };
  /** `token`: a valid API token minted through the control plane, when one could be. */
  maintenance?: { webUrl: string; basePath: string; token?: string };
  fleet?: {
    apiUrl: string;
    account: { email: string; password: string };
    /** A Viewer of the same partner access (FLEET-AUTH-VIEWER-ACK-403). */
    viewer?: { email: string; password: string };
    /** A site of another partner access, invisible to `account`. */
    foreignSite?: string;
    /** An open attention item `account` and `viewer` see, made through the control plane. */
    item?: { siteId: string; id: string };
  };
  mcp?: { mcpUrl: string; token: string };
}

/** What a check found wrong with one answer. */
export type FindingKind = 'hang' | '5xx' | 'mismatch' | 'crash';

export interface Finding {
  kind: FindingKind;
  message: string;
}

/**
 * One family of generated inputs on one face, with the answer the spec names for it. In the
 * report each generator is one scenario tagged with `clauses`.
 */
export interface FuzzGenerator<I = unknown> {
  face: FaceName;
  /** Stable id, used in `--path <id>/<fast-check path>`. */
  id: string;
  /** One line: what is sent and what must come back. */
  title: string;
  clauses: string[];
  /** Share of the face's runs (relative to the other generators of the face). */
  weight: number;
  arbitrary: fc.Arbitrary<I>;
  request(input: I): WireRequest;
  /** `null` when the answer is what the spec names (or, where it names none, no 5xx). */
  check(input: I, answer: WireAnswer): Finding | null;
}

/** A good request of a face: it must still be answered after every batch (no crash). */
export interface LivenessProbe {
  face: FaceName;
  request(): WireRequest;
  ok(answer: WireAnswer): boolean;
}

/** Why a generator cannot run against this target (shown as a not-verifiable reason). */
export interface Unavailable {
  face: FaceName;
  id: string;
  title: string;
  clauses: string[];
  reason: string;
}
