import { createHash } from 'node:crypto';
import type {
  RecordedHttpFetch,
  RecordedStream,
  RecordedXmlRpcAnswer,
  Recording,
} from '../../simulators/pbx/index.ts';

/** The first place a recording contradicts itself: its JSON path and what is wrong there. */
export interface Inconsistency {
  path: string;
  problem: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks what the schema cannot: that each recorded stream agrees with its own bytes (issue 29
 * item 4). `simulate --recording` serves the bytes as they stand and cuts them by the chunk
 * lengths, so a length, chunk, hash, offset or header that disagrees with the bytes would replay
 * something no target sent (garbage from bad base64, a `Content-Length` of 1 GB over 8 KB of body).
 * Per stream: base64 that decodes back to itself, `length` the number of bytes, `sha256` their
 * hash, the chunk lengths adding up to `length` with times that never go back; per HTTP fetch:
 * `bodyOffset` within the bytes, the head before it the recorded status line and headers, and a
 * `Content-Length` the length of the body. An XML-RPC answer's `Content-Length` is its body's.
 * Returns the first inconsistency in document order, or `undefined`.
 */
export function findInconsistency(recording: Recording): Inconsistency | undefined {
  for (const [index, sample] of recording.samples.entries()) {
    const at = `$.samples[${index}]`;
    const endpoint = sample.dataEndpoint;
    if (endpoint?.raw) {
      const found = checkStream(endpoint.raw, `${at}.dataEndpoint.raw`);
      if (found) return found;
    }
    for (const [fetchIndex, fetch] of (endpoint?.http ?? []).entries()) {
      const found = checkFetch(fetch, `${at}.dataEndpoint.http[${fetchIndex}]`);
      if (found) return found;
    }
    for (const [method, answer] of Object.entries(sample.xmlrpc ?? {})) {
      const found = checkXmlRpc(answer as RecordedXmlRpcAnswer, `${at}.xmlrpc.${method}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** The bytes of a stream, or the inconsistency of its `bytes` member (base64 that is not). */
function decode(stream: RecordedStream, path: string): Buffer | Inconsistency {
  if ('text' in stream.bytes) return Buffer.from(stream.bytes.text, 'utf8');
  const text = stream.bytes.base64;
  const bytes = Buffer.from(text, 'base64');
  // Node decodes anything, skipping what is not base64; only text that encodes back is whole.
  if (text.length % 4 !== 0 || !BASE64.test(text) || bytes.toString('base64') !== text)
    return { path: `${path}.bytes.base64`, problem: 'is not valid base64' };
  return bytes;
}

function checkStream(stream: RecordedStream, path: string): Inconsistency | undefined {
  const bytes = decode(stream, path);
  if (!Buffer.isBuffer(bytes)) return bytes;
  if (stream.length !== bytes.length)
    return { path: `${path}.length`, problem: `is ${stream.length}, but the bytes are ${bytes.length} long` };
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (stream.sha256 !== hash)
    return { path: `${path}.sha256`, problem: `is not the SHA-256 of the bytes (${hash})` };
  let sum = 0;
  let lastAt = 0;
  for (const [index, chunk] of stream.chunks.entries()) {
    sum += chunk.length;
    if (sum > bytes.length)
      return {
        path: `${path}.chunks[${index}].length`,
        problem: `takes the chunks to ${sum} bytes, past the ${bytes.length} recorded`,
      };
    if (chunk.atMs < lastAt)
      return {
        path: `${path}.chunks[${index}].atMs`,
        problem: `is ${chunk.atMs}, before the chunk ahead of it (${lastAt})`,
      };
    lastAt = chunk.atMs;
  }
  if (stream.chunks.length > 0 && sum !== bytes.length)
    return { path: `${path}.chunks`, problem: `add up to ${sum} bytes, not the ${bytes.length} recorded` };
  return undefined;
}

function checkFetch(fetch: RecordedHttpFetch, path: string): Inconsistency | undefined {
  const found = checkStream(fetch, path);
  if (found) return found;
  if (fetch.bodyOffset === undefined) return undefined;
  if (fetch.bodyOffset > fetch.length)
    return { path: `${path}.bodyOffset`, problem: `is ${fetch.bodyOffset}, past the ${fetch.length} bytes` };
  const head = (decode(fetch, path) as Buffer).subarray(0, fetch.bodyOffset).toString('latin1');
  const separator = head.endsWith('\r\n\r\n') ? '\r\n' : head.endsWith('\n\n') ? '\n' : undefined;
  if (separator === undefined)
    return { path: `${path}.bodyOffset`, problem: 'does not follow the blank line that ends the head' };
  const lines = head.slice(0, -2 * separator.length).split(separator);
  if (fetch.statusLine !== undefined && lines[0] !== fetch.statusLine)
    return { path: `${path}.statusLine`, problem: 'is not the status line of the bytes' };
  const headers = fetch.headers ?? [];
  for (const [index, [name, value]] of headers.entries()) {
    const line = lines[index + 1];
    if (line === undefined || !line.startsWith(`${name}:`) || line.slice(name.length + 1).trim() !== value)
      return { path: `${path}.headers[${index}]`, problem: 'is not the header line of the bytes' };
  }
  if (fetch.headers !== undefined && lines.length !== headers.length + 1)
    return {
      path: `${path}.headers`,
      problem: `lists ${headers.length} headers, the bytes ${lines.length - 1}`,
    };
  return contentLength(headers, fetch.length - fetch.bodyOffset, `${path}.headers`);
}

function checkXmlRpc(answer: RecordedXmlRpcAnswer, path: string): Inconsistency | undefined {
  return contentLength(answer.headers, Buffer.byteLength(answer.body), `${path}.headers`);
}

/** Every `Content-Length` header is the length of the body recorded. */
function contentLength(
  headers: [string, string][],
  bodyLength: number,
  path: string,
): Inconsistency | undefined {
  for (const [index, [name, value]] of headers.entries()) {
    if (name.toLowerCase() !== 'content-length') continue;
    if (value.trim() !== String(bodyLength))
      return {
        path: `${path}[${index}][1]`,
        problem: `says Content-Length ${value.slice(0, 20)}, but the body recorded is ${bodyLength} bytes`,
      };
  }
  return undefined;
}
