import { headerObject, sendHttp } from '../../../src/clients/http-send.ts';

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

/** The answer's head as the steps read it (the shape of node:http's and pactum's responses). */
export interface RawBodyResponse {
  statusCode: number;
  statusMessage: string;
  /** Lower-case names, repeated ones joined. */
  headers: Record<string, string>;
}

export interface RawBodyOutcome {
  response?: RawBodyResponse;
  /** The answer's body as UTF-8 text. */
  text: string;
  /** Body bytes handed to the connection before the answer came (a streamed body stops there). */
  bytesSent: number;
  error?: string;
}

/** The most answer bytes kept: every answer of interface A is a small JSON object. */
const MAX_ANSWER_BYTES = 1_048_576;

/**
 * Sends a request through undici (src/clients/http-send.ts) and reads the answer, handing a
 * streamed body over only while no answer has come: a server that answers 413 as soon as the
 * limit is passed (MAINT-ERR-413-BODY-TOO-LARGE) is not fed the rest of 100 MB. Never rejects; a
 * transport failure or the real-time limit ends in `error`.
 */
export async function sendRawBody(options: RawBodyRequest): Promise<RawBodyOutcome> {
  const headers: Record<string, string> = { ...options.headers };
  const { body } = options;
  if (body.kind === 'bytes') headers['content-length'] = String(body.bytes.length);
  else if (body.declareLength) headers['content-length'] = String(body.totalBytes);
  let bytesSent = 0;
  let answered = false;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  async function* stream(total: number, chunkBytes: number): AsyncGenerator<Buffer> {
    const chunk = Buffer.alloc(chunkBytes, 0x20);
    while (!answered && bytesSent < total) {
      const size = Math.min(chunk.length, total - bytesSent);
      bytesSent += size;
      yield size === chunk.length ? chunk : chunk.subarray(0, size);
    }
    // Answered early: hold the rest back until the exchange is over (ending the body here would
    // make a declared length a lie before the answer is read).
    if (answered) await stopped;
  }
  try {
    const answer = await sendHttp({
      url: options.url,
      method: options.method,
      headers,
      body: body.kind === 'bytes' ? body.bytes : stream(body.totalBytes, body.chunkBytes),
      timeoutMs: options.timeoutMs,
      maxBodyBytes: MAX_ANSWER_BYTES,
      onAnswer: () => {
        answered = true;
      },
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    if (body.kind === 'bytes') bytesSent = body.bytes.length;
    return {
      response: {
        statusCode: answer.status,
        statusMessage: answer.statusMessage,
        headers: headerObject(answer.rawHeaders),
      },
      text: answer.body.toString('utf8'),
      bytesSent,
    };
  } catch (error) {
    return { text: '', error: error instanceof Error ? error.message : String(error), bytesSent };
  } finally {
    stop();
  }
}
