import { tcpExchange } from '../core/tcp-exchange.ts';

/** One request as bytes on a fresh TCP connection. */
export interface WireRequest {
  host: string;
  port: number;
  bytes: Buffer;
  /** Local address to connect from (a listed or unlisted client of the data endpoint). */
  localAddress?: string;
  /** Half-close after sending (the data endpoint's raw clients do; HTTP requests carry `Connection: close`). */
  endWrite?: boolean;
}

/** What came back: every byte until the server closed, or until the bound passed. */
export interface WireAnswer {
  bytes: Buffer;
  /** `end`/`reset`: the server closed; `timeout`: neither an answer nor a close within the bound. */
  ending: 'end' | 'reset' | 'timeout' | 'refused';
  ms: number;
  /** The HTTP answer, when the bytes start with a complete HTTP status line and head. */
  http: HttpAnswer | null;
}

export interface HttpAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/**
 * Sends `request.bytes` on a new connection and reads until the server closes. A complete HTTP
 * answer (head plus `Content-Length` bytes) also counts as done, so a server keeping the
 * connection open after answering is not a hang. Never rejects. The exchange itself is the
 * harness's one TCP exchanger (src/core/tcp-exchange.ts).
 */
export async function exchange(request: WireRequest, boundMs: number): Promise<WireAnswer> {
  const started = performance.now();
  const outcome = await tcpExchange({
    host: request.host,
    port: request.port,
    send: request.bytes,
    timeoutMs: boundMs,
    isComplete: completeHttp,
    ...(request.endWrite ? { endWrite: true } : {}),
    ...(request.localAddress === undefined ? {} : { localAddress: request.localAddress }),
  });
  const ending: WireAnswer['ending'] =
    outcome.end === 'timeout'
      ? 'timeout'
      : outcome.end === 'peer-reset'
        ? 'reset'
        : outcome.end === 'connect-failed'
          ? outcome.errorCode === 'ECONNREFUSED'
            ? 'refused'
            : outcome.errorCode === 'ETIMEDOUT'
              ? 'timeout'
              : 'reset'
          : 'end';
  const bytes = outcome.bytes;
  return { bytes, ending, ms: performance.now() - started, http: parseHttpAnswer(bytes) };
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Status, lower-case headers and body of an HTTP/1.x answer; `null` when the bytes are not one. */
export function parseHttpAnswer(bytes: Buffer): HttpAnswer | null {
  if (!bytes.subarray(0, 7).toString('latin1').startsWith('HTTP/1.')) return null;
  const end = bytes.indexOf(HEAD_END);
  if (end < 0) return null;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = bytes.subarray(end + 4);
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') body = unchunk(body);
  return { status, headers, body };
}

/** A whole HTTP answer with a `Content-Length` is in `bytes` (or a 1xx/204/304 head). */
function completeHttp(bytes: Buffer): boolean {
  const answer = parseHttpAnswer(bytes);
  if (!answer) return false;
  if (answer.status === 204 || answer.status === 304) return true;
  const length = Number(answer.headers.get('content-length'));
  return Number.isFinite(length) && answer.body.length >= length;
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** `host` and `port` of an http:// URL. */
export function hostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
  };
}

/** One HTTP/1.1 request with `Connection: close` and, when there is a body, its `Content-Length`. */
export function httpRequest(
  method: string,
  target: string,
  headers: Array<[string, string]>,
  body?: Buffer | string,
): Buffer {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: fuzz', 'Connection: close'];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (payload !== undefined && !headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n)))
    lines.push(`Content-Length: ${payload.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return payload === undefined ? head : Buffer.concat([head, payload]);
}

/**
 * A shell line that sends the same bytes: `printf` with every byte outside plain printable ASCII
 * (and `'`, `%`, `\`) as a three-digit octal escape `\ooo` (POSIX printf; `\x` is a bash extension),
 * piped into `nc`.
 */
export function ncLine(request: WireRequest): string {
  let text = '';
  for (const byte of request.bytes) {
    const plain = byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x25 && byte !== 0x5c;
    text += plain ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  const source = request.localAddress === undefined ? '' : ` -s ${request.localAddress}`;
  return `printf '${text}' | nc${request.endWrite ? ' -N' : ''} -w 5${source} ${request.host} ${request.port}`;
}
