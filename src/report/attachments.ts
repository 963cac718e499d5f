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
