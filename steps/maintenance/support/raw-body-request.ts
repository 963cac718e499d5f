import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * A request body the harness controls byte by byte: exact bytes with their `Content-Length`, or a
 * stream of `totalBytes` in chunks, either declared up front (`Content-Length`) or chunked.
 */
export type RawBody =
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'stream'; totalBytes: number; chunkBytes: number; declareLength: boolean };

export interface RawBodyRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: RawBody;
  timeoutMs: number;
  localAddress?: string;
}

export interface RawBodyOutcome {
  response?: IncomingMessage;
  /** The answer's body as UTF-8 text. */
  text: string;
  /** Body bytes written before the answer came (a streamed body stops there). */
  bytesSent: number;
  error?: string;
}

/** The most answer bytes kept: every answer of interface A is a small JSON object. */
const MAX_ANSWER_BYTES = 1_048_576;

/**
 * Sends a request with node:http and reads the answer, writing a streamed body only while no
 * answer has come: a server that answers 413 as soon as the limit is passed
 * (MAINT-ERR-413-BODY-TOO-LARGE) is not fed the rest of 100 MB. Never rejects; a transport
 * failure or the real-time limit ends in `error`.
 */
export function sendRawBody(options: RawBodyRequest): Promise<RawBodyOutcome> {
  return new Promise((resolve) => {
    const url = new URL(options.url);
    const headers: Record<string, string> = { ...options.headers };
    const { body } = options;
    if (body.kind === 'bytes') headers['Content-Length'] = String(body.bytes.length);
    else if (body.declareLength) headers['Content-Length'] = String(body.totalBytes);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let bytesSent = 0;
    let answered = false;
    let settled = false;
    const finish = (outcome: Omit<RawBodyOutcome, 'bytesSent'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...outcome, bytesSent });
    };
    const timer = setTimeout(
      () => finish({ text: '', error: `no complete answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    const request: ClientRequest = send(
      url,
      {
        method: options.method,
        headers,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept + chunk.length <= MAX_ANSWER_BYTES) chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('end', () => finish({ response, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => finish({ text: '', error: error.message }));
      },
    );
    // A server may close its side after answering early; the answer still counts.
    request.on('error', (error) => {
      if (!answered) finish({ text: '', error: error.message });
    });
    if (body.kind === 'bytes') {
      request.end(body.bytes, () => {
        bytesSent = body.bytes.length;
      });
      return;
    }
    const chunk = Buffer.alloc(body.chunkBytes, 0x20);
    const pump = () => {
      while (!answered && !settled && bytesSent < body.totalBytes) {
        const size = Math.min(chunk.length, body.totalBytes - bytesSent);
        bytesSent += size;
        const more = request.write(size === chunk.length ? chunk : chunk.subarray(0, size));
        if (!more) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered && !settled) request.end();
    };
    pump();
  });
}
