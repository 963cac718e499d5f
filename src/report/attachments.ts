/**
 * How steps hand facts to the report builder: as Cucumber attachments with these media types.
 * The report builder reads them back from the message stream (one result model, many renderings).
 */

/** Attached (JSON) by a step that cannot verify its clause on this target, before it returns 'skipped'. */
export const NOT_VERIFIABLE_MEDIA_TYPE = 'application/vnd.pbx-conformance.not-verifiable+json';

/** Attached (JSON) by steps: what went over the wire, so a failure carries its evidence. */
export const EVIDENCE_MEDIA_TYPE = 'application/vnd.pbx-conformance.evidence+json';

export interface NotVerifiableAttachment {
  reason: string;
}

export interface EvidenceAttachment {
  /** e.g. `HTTP GET /xml`, `TCP raw connect`, `XML-RPC Monitoring.GetMonitoringData`. */
  exchange: string;
  request?: string;
  response?: string;
  /** Free-form facts, e.g. fast-check seed and path of a property run. */
  details?: Record<string, unknown>;
}

/** Evidence text is cut to this many characters so reports stay readable and bounded. */
export const MAX_EVIDENCE_CHARS = 4000;

/**
 * The compact form of a passing scenario's evidence in the report (issue 29, item 17): the
 * exchange line, the sizes of what was attached, the SHA-256 of the full form, and on the first
 * exchange of the scenario the first {@link COMPACT_HEAD_BYTES} bytes of its response (else its
 * request). The head is kept once per report: the entry names it by `headSha256`, and the
 * report's `evidenceHeads` holds each distinct head under that key (a scenario that proves several
 * clauses, and scenarios whose answers start alike, share one). A report of an earlier version may
 * carry the head inline as `head`. Failures, not-verifiable results and expected failures keep the
 * full form ({@link EvidenceAttachment}); `verify --evidence full` keeps it for passes too.
 */
export interface CompactEvidence {
  exchange: string;
  form: 'compact';
  /** UTF-8 bytes of the request, response and details (as JSON) of the full form. */
  requestBytes?: number;
  responseBytes?: number;
  detailsBytes?: number;
  /** SHA-256 (hex) of the full form's JSON text, `JSON.stringify({exchange, request, response, details})`. */
  sha256: string;
  /** SHA-256 (hex) of the head's UTF-8 text: its key in the report's `evidenceHeads`. First exchange only. */
  headSha256?: string;
  /** The head inline (the form of earlier reports); read, never written. */
  head?: string;
  request?: undefined;
  response?: undefined;
  details?: undefined;
}

/** Evidence as a report holds it: full, or compact for passes. */
export type ReportEvidence = EvidenceAttachment | CompactEvidence;

/**
 * Bytes of a passing scenario's first response kept in the compact form (issue 29, item 17).
 * Measured on the embedded run: inline in every entry, 2 KiB heads made the JSON 1.69 MB; kept
 * once per distinct head (`evidenceHeads`), see docs/reports.md.
 */
export const COMPACT_HEAD_BYTES = 2048;
