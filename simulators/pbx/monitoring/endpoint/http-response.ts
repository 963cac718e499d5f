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
  const plain = options.headers === undefined || Object.keys(options.headers).length === 0;
  const key = plain ? `${status} ${body.byteLength} ${contentType}` : undefined;
  let head = key === undefined ? undefined : heads.get(key);
  if (head === undefined) {
    head = responseHead(status, contentType, body.byteLength, options.headers);
    if (key !== undefined) {
      if (heads.size >= MAX_HEADS) heads.clear();
      heads.set(key, head);
    }
  }
  return options.headOnly ? [head] : [head, body];
}

/** Heads without further headers, by status, length and type: a poller's head is made once. */
const heads = new Map<string, Buffer>();
const MAX_HEADS = 256;

function responseHead(
  status: number,
  contentType: string,
  length: number,
  headers: Record<string, string> | undefined,
): Buffer {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Unknown'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${length}`,
    'Connection: close',
    ...Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}
