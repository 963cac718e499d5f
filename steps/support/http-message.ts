/** An HTTP/1.x response as it came off a raw socket. */
export interface RawHttpResponse {
  statusLine: string;
  httpVersion: string;
  status: number;
  reason: string;
  /** Header fields in wire order, names as sent. */
  headers: [name: string, value: string][];
  /** Everything after the blank line up to the end of the connection. */
  body: Buffer;
  /** The head (status line and header fields) as text. */
  head: string;
}

/** Builds a request head for the data endpoint; `Host` is always set (HTTP/1.1 requires it). */
export function buildHttpRequest(
  method: string,
  target: string,
  host: string,
  extraHeaders: string[] = [],
): string {
  return [`${method} ${target} HTTP/1.1`, `Host: ${host}`, ...extraHeaders, '', ''].join('\r\n');
}

const STATUS_LINE = /^HTTP\/(\d\.\d) (\d{3})(?: (.*))?$/;

/**
 * Parses a response read until the server closed the connection. Returns `undefined` when the
 * bytes do not start with an HTTP status line (for example raw agent text).
 */
export function parseHttpResponse(bytes: Buffer): RawHttpResponse | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  const headBytes = headEnd === -1 ? bytes : bytes.subarray(0, headEnd);
  const head = headBytes.toString('latin1');
  const [statusLine = '', ...fieldLines] = head.split('\r\n');
  const match = STATUS_LINE.exec(statusLine);
  if (!match) return undefined;
  const headers: [string, string][] = [];
  for (const line of fieldLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return {
    statusLine,
    httpVersion: match[1]!,
    status: Number(match[2]),
    reason: match[3] ?? '',
    headers,
    body: headEnd === -1 ? Buffer.alloc(0) : bytes.subarray(headEnd + 4),
    head,
  };
}

/** All values of a header field (names compare case-insensitively). */
export function headerValues(response: RawHttpResponse, name: string): string[] {
  const lower = name.toLowerCase();
  return response.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** The single value of a header field, or `undefined` when absent. */
export function headerValue(response: RawHttpResponse, name: string): string | undefined {
  return headerValues(response, name)[0];
}
