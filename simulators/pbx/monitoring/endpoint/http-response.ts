const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  500: 'Internal Server Error',
};

export interface HttpResponseOptions {
  /** HEAD: the headers of the full answer, `Content-Length` included, but no body. */
  headOnly?: boolean;
  /** Further headers, e.g. `Allow`. */
  headers?: Record<string, string>;
}

/**
 * An HTTP/1.1 answer of the data endpoint as write-ready chunks: the head, then the body (kept as
 * its own buffer so a memoised rendering is written without a copy). Every answer carries
 * `Content-Type`, `Content-Length` (the byte length of the body) and `Connection: close`
 * (MON-HTTP-HEADERS, MON-HTTP-CONTENT-LENGTH); the version is always HTTP/1.1, also for HTTP/1.0
 * requests (MON-UNSPEC-HTTP-DETAILS).
 */
export function httpResponse(
  status: number,
  contentType: string,
  body: Buffer,
  options: HttpResponseOptions = {},
): Buffer[] {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Unknown'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${body.byteLength}`,
    'Connection: close',
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return options.headOnly ? [head] : [head, body];
}
