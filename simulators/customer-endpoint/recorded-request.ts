/** One request exactly as the customer endpoint received it (issue 5, section 3). */
export interface RecordedRequest {
  seq: number;
  /** Wall-clock epoch ms of arrival. */
  at: number;
  method: string;
  /** The request-target as sent (path and raw query, nothing decoded). */
  target: string;
  path: string;
  /** The raw query without `?`, or `null` when there was none. */
  query: string | null;
  httpVersion: string;
  /** Header lines in order with their original name casing (node's `rawHeaders`). */
  headers: [string, string][];
  /** Body bytes (at most `MAX_RECORDED_BODY_BYTES`). */
  body: Buffer;
  bodyTruncated: boolean;
  /** `TLSv1.3`, `TLSv1.2`, or `null` for plain http. */
  tlsProtocol: string | null;
  /** Outcome of the endpoint's authentication check for this request. */
  auth: 'none' | 'ok' | 'challenged' | 'rejected';
  /** Status the endpoint answered with (`null`: never answered). */
  status: number | null;
  /**
   * The `Content-Encoding` the endpoint sent with its answer (`gzip`, `deflate`, `br`), so a
   * check of RESOLVER-RESPONSE-COMPRESSED sees the coding on the wire; `null` when it sent none or
   * has not answered.
   */
  responseContentEncoding: string | null;
}

export const MAX_RECORDED_BODY_BYTES = 1024 * 1024;

/** The value of the first header named `name` (case-insensitive), or `undefined`. */
export function recordedHeader(request: Pick<RecordedRequest, 'headers'>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return request.headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}
