import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';

export interface HttpSendOptions {
  url: string | URL;
  method: string;
  headers?: Record<string, string>;
  /** Exact bytes, or chunks pulled one at a time as the connection takes them. */
  body?: Buffer | AsyncIterable<Buffer>;
  /** Real-time limit of the whole exchange (connect, send, read to the end). */
  timeoutMs: number;
  /** Local address to connect from, to pose as a listed or unlisted client. */
  localAddress?: string;
  /** Most answer bytes kept (the rest is read and dropped). Default 32 MiB. */
  maxBodyBytes?: number;
  /** Called once the answer's head has come (a streamed body may stop there). */
  onAnswer?: () => void;
}

export interface HttpAnswer {
  status: number;
  statusMessage: string;
  /** Header pairs as they came on the wire: order and casing kept. */
  rawHeaders: [string, string][];
  body: Buffer;
}

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * One HTTP exchange through undici (issue 30 §7: nothing sends with node:http), on a connection
 * of its own that is closed afterwards, keeping what the convenience API hides: the raw header
 * pairs (a recording keeps order and casing) and the moment the answer's head comes (a streamed
 * body stops there). An answer that completes while the body is still being sent counts: undici
 * completes the exchange first and only then drops the connection. Rejects with an Error when no
 * whole answer comes within the time limit or the connection fails.
 */
export function sendHttp(options: HttpSendOptions): Promise<HttpAnswer> {
  const url = new URL(options.url);
  const agent = new Agent({
    connect: {
      timeout: options.timeoutMs,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let head: Omit<HttpAnswer, 'body'> | undefined;
    const parts: Buffer[] = [];
    let kept = 0;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      agent.destroy().catch(() => undefined);
      if (error || !head) reject(error ?? new Error('no answer'));
      else resolve({ ...head, body: Buffer.concat(parts) });
    };
    const timer = setTimeout(() => {
      const error = new Error(`no complete answer within ${options.timeoutMs} ms`);
      controller?.abort(error);
      finish(error);
    }, options.timeoutMs);
    agent.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: options.method as Dispatcher.HttpMethod,
        headers: options.headers ?? {},
        body:
          options.body === undefined || Buffer.isBuffer(options.body)
            ? (options.body ?? null)
            : Readable.from(options.body, { objectMode: false }),
      },
      {
        onRequestStart(c) {
          controller = c;
        },
        onResponseStart(c, statusCode, _headers, statusMessage) {
          head = {
            status: statusCode,
            statusMessage: statusMessage ?? '',
            rawHeaders: headerPairs(c.rawHeaders),
          };
          options.onAnswer?.();
        },
        onResponseData(_c, chunk) {
          if (kept + chunk.length <= maxBodyBytes) parts.push(chunk);
          kept += chunk.length;
        },
        onResponseEnd() {
          finish();
        },
        onResponseError(_c, error) {
          finish(error);
        },
      },
    );
  });
}

function headerPairs(raw: Dispatcher.DispatchController['rawHeaders']): [string, string][] {
  if (!Array.isArray(raw)) return Object.entries(raw ?? {}).map(([k, v]) => [k, String(v)]);
  const pairs: [string, string][] = [];
  const text = (part: Buffer | string | undefined) =>
    Buffer.isBuffer(part) ? part.toString('latin1') : String(part ?? '');
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([text(raw[i]), text(raw[i + 1])]);
  return pairs;
}

/** The answer's headers as node:http gives them: lower-case names, repeated ones joined. */
export function headerObject(pairs: readonly [string, string][]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  return headers;
}
