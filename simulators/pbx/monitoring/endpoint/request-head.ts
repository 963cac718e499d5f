/** The HTTP methods the data endpoint serves (MON-HTTP-METHODS). */
export const SERVED_METHODS: readonly string[] = ['GET', 'POST', 'HEAD', 'OPTIONS'];

/**
 * What the first bytes of a connection are:
 * - `incomplete`: they may still become an HTTP request head; read on.
 * - `raw`: not an HTTP request (nothing, or bytes that are no request line): answer raw.
 * - `http`: a complete request line `METHOD SP target SP HTTP/d.d` and its header block.
 * - `too-large`: an HTTP-looking head that outgrew the bound before it ended.
 */
export type HeadVerdict =
  | { kind: 'incomplete' }
  | { kind: 'raw' }
  | { kind: 'http'; method: string; target: string }
  | { kind: 'too-large' };

const REQUEST_LINE = /^([A-Z][A-Z_-]{0,19}) ([^\x00-\x20\x7f]+) HTTP\/\d\.\d$/;
/** A first line that is not finished yet but can still become a request line. */
const REQUEST_LINE_PREFIX = /^[A-Z][A-Z_-]{0,19}(?: [^\x00-\x20\x7f]*(?: [HTP/0-9.]{0,8}\r?)?)?$/;

/**
 * Classifies the bytes a client has sent so far (MON-RAW-MODE, MON-UNSPEC-RAW-DETECTION).
 * A head is the request line plus header lines up to the first empty line; a body after it is
 * not waited for. `ended` means the client closed its sending side: what was sent is then all
 * there is, so a request line without its empty line still counts as a request. Bytes that
 * cannot start a request line (lower-case text, binary, an agent's stray newline) are `raw`:
 * the endpoint then behaves like an agent that ignores its input.
 */
export function inspectHead(bytes: Buffer, ended: boolean, maxHeadBytes: number): HeadVerdict {
  if (bytes.length === 0) return ended ? { kind: 'raw' } : { kind: 'incomplete' };
  const lineEnd = bytes.indexOf(0x0a);
  if (lineEnd === -1) {
    if (bytes.length > maxHeadBytes) return overflow(bytes, maxHeadBytes);
    const partial = bytes.toString('latin1');
    if (ended) return requestLine(partial.replace(/\r$/, '')) ?? { kind: 'raw' };
    return REQUEST_LINE_PREFIX.test(partial) ? { kind: 'incomplete' } : { kind: 'raw' };
  }
  if (lineEnd > maxHeadBytes) return overflow(bytes, maxHeadBytes);
  const request = requestLine(bytes.toString('latin1', 0, lineEnd).replace(/\r$/, ''));
  if (!request) return { kind: 'raw' };
  const headEnd = endOfHead(bytes, lineEnd);
  if (headEnd !== -1 && headEnd <= maxHeadBytes) return request;
  if (headEnd === -1 && ended && bytes.length <= maxHeadBytes) return request;
  return headEnd !== -1 || bytes.length > maxHeadBytes ? { kind: 'too-large' } : { kind: 'incomplete' };
}

/** A first line longer than the bound: too large if it looked like HTTP, else just bytes. */
function overflow(bytes: Buffer, maxHeadBytes: number): HeadVerdict {
  const start = bytes.toString('latin1', 0, maxHeadBytes);
  return REQUEST_LINE_PREFIX.test(start) ? { kind: 'too-large' } : { kind: 'raw' };
}

function requestLine(line: string): HeadVerdict | null {
  const match = REQUEST_LINE.exec(line);
  return match ? { kind: 'http', method: match[1]!, target: match[2]! } : null;
}

/** Offset just after the empty line that ends the head (CRLF or bare LF lines), or -1. */
function endOfHead(bytes: Buffer, firstLineEnd: number): number {
  for (let lf = firstLineEnd; lf !== -1; lf = bytes.indexOf(0x0a, lf + 1)) {
    const next = bytes[lf + 1];
    if (next === 0x0a) return lf + 2;
    if (next === 0x0d && bytes[lf + 2] === 0x0a) return lf + 3;
  }
  return -1;
}
