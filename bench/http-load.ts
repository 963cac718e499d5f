import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** A bare node:http server answering 200 with a tiny JSON body: the ceiling of an HTTP face. */
export async function bareHttpServer(body = '{"status":"ok"}'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * One answer of a face as its bench row's bare server repeats it: the status, the header fields
 * the face set, in its order (node adds `Date`, `Connection` and `Keep-Alive` on both sides
 * alike), and the body.
 */
export interface RecordedAnswer {
  status: number;
  /** Name, value, name, value, … as `writeHead` takes them. */
  headers: string[];
  body: Buffer;
}

/** Fields node:http writes by itself: left to the bare server's node, as the face's node wrote them. */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Records the face's answer to one request, for {@link bareAnswerServer}. */
export async function recordAnswer(
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<RecordedAnswer> {
  const res = await request(url, options);
  const body = Buffer.from(await res.body.arrayBuffer());
  const headers = Object.entries(res.headers)
    .filter(([name]) => !ADDED_BY_NODE.has(name))
    .flatMap(([name, value]) =>
      Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, String(value ?? '')],
    );
  return { status: res.statusCode, headers, body };
}

/**
 * The bare server of a face's bench row (issue 31 §3): a plain node:http server that sends the
 * face's own bytes — its status, header fields and body, recorded from it — so the load worker
 * does the same work for both rows (the same head to parse, the same framing: a face's
 * `Content-Length` is not read as a chunked body on the bare side) and the ratio judges the
 * servers alone. `answerFor` picks the recorded answer for a request; with `readBody` the answer
 * is written when the request's body has been read, as a face that uses the body does.
 */
export async function bareAnswerServer(
  answerFor: (req: IncomingMessage) => RecordedAnswer,
  options: { readBody: boolean },
): Promise<{ server: Server; url: string }> {
  // No named closure per request: under tsx each would be wrapped in esbuild's `__name`, a cost
  // the bare side would pay and the face does not.
  const server = createServer((req, res) => {
    req.resume();
    if (options.readBody) req.on('end', () => sendAnswer(res, answerFor(req)));
    else sendAnswer(res, answerFor(req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function sendAnswer(res: ServerResponse, { status, headers, body }: RecordedAnswer): void {
  res.writeHead(status, headers).end(body);
}

/** Median of a list of numbers (ms). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
