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
 * request). Failures, not-verifiable results and expected failures keep the full form
 * ({@link EvidenceAttachment}); `verify --evidence full` keeps it for passes too.
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
  /** The first {@link COMPACT_HEAD_BYTES} bytes of the response (else the request); first exchange only. */
  head?: string;
  request?: undefined;
  response?: undefined;
  details?: undefined;
}

/** Evidence as a report holds it: full, or compact for passes. */
export type ReportEvidence = EvidenceAttachment | CompactEvidence;

/**
 * Bytes of a passing scenario's first response kept in the compact form. Measured on the
 * embedded run (1,586 exchanges of passes, 847 passing scenario entries): 2 KiB would make the
 * JSON 1.7 MB, over its 1 MB bound; 256 bytes show the status line and the first header lines.
 */
export const COMPACT_HEAD_BYTES = 256;
