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
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * An HTTP/1.1 answer of the data endpoint as write-ready chunks. Every answer carries
 * `Content-Type`, `Content-Length` (the byte length of the body) and `Connection: close`
 * (MON-HTTP-HEADERS, MON-HTTP-CONTENT-LENGTH); the version is always HTTP/1.1, also for HTTP/1.0
 * requests (MON-UNSPEC-HTTP-DETAILS).
 *
 * A poller's answer (no further headers) is one buffer, head and body, made once per rendering
 * and kept beside it (the body is memoised by the snapshot cache), so each fetch is one write of
 * ready bytes, as the bare server's (issue 31 §3); other answers are the head, then the body.
 */
export function httpResponse(
  status: number,
  contentType: string,
  body: Buffer,
  options: HttpResponseOptions = {},
): Buffer[] {
  const plain = options.headers === undefined || Object.keys(options.headers).length === 0;
  const key = plain ? `${status} ${body.byteLength} ${contentType}` : undefined;
  if (key !== undefined && !options.headOnly) {
    const whole = wholeAnswers.get(body);
    if (whole?.key === key) return whole.chunks;
  }
  let head = key === undefined ? undefined : heads.get(key);
  if (head === undefined) {
    head = responseHead(status, contentType, body.byteLength, options.headers);
    if (key !== undefined) {
      if (heads.size >= MAX_HEADS) heads.clear();
      heads.set(key, head);
    }
  }
  if (options.headOnly) return [head];
  if (key === undefined) return [head, body];
  const chunks = [Buffer.concat([head, body])];
  wholeAnswers.set(body, { key, chunks });
  return chunks;
}

/**
 * Whole plain answers by the body they carry: one per rendering, gone with it. Treat the
 * returned arrays as read-only; they are shared by every fetch of that rendering.
 */
const wholeAnswers = new WeakMap<Buffer, { key: string; chunks: Buffer[] }>();

/** Heads without further headers, by status, length and type: a poller's head is made once. */
const heads = new Map<string, Buffer>();
const MAX_HEADS = 256;

function responseHead(
  status: number,
  contentType: string,
  length: number,
  headers: Readonly<Record<string, string>> | undefined,
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
