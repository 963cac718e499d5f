import { IncomingMessage, type Server, type ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A request head must be complete this long after the request began; then `408`. */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often node checks its head and request timeouts. Node's default is 30 s, so a head due
 * after 10 s was answered `408` only after 10 to 40 s (20-21 s were measured, while the docs said
 * 10 s; issue 20, item 17). Checking every second answers within 10 to 11 s.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * The most of a request body a face lets arrive after it has answered without reading it: 64 KiB.
 * Node reads an unread body to its end to keep the connection for the next request, so a 401 or
 * 404 to a body declared 10 GiB went on reading it (5-10 GiB in about 5 s, issue 29 item 2).
 */
export const UNREAD_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * After an answer that closes the connection on an unread body: how long, and how many more body
 * bytes, the server still reads and drops on the half-closed connection before it drops it
 * (RFC 9112 §9.6, "Tear-down"; see {@link BoundedResponse}).
 */
export const STAGED_CLOSE_MS = 2_000;
export const STAGED_CLOSE_BYTES = 8 * 1024 * 1024;

/** A request that counts the body bytes that have arrived, read by its handler or not. */
export class CountedRequest extends IncomingMessage {
  bodyBytesArrived = 0;

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null && chunk !== undefined) this.bodyBytesArrived += (chunk as Buffer).length;
    return super.push(chunk, encoding);
  }
}

/**
 * Whether more than {@link UNREAD_BODY_LIMIT_BYTES} of the request's body has yet to arrive: its
 * declared `Content-Length` less what has arrived, or any chunked body not yet complete (its
 * length is unknown).
 */
export function unreadBodyOverLimit(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!Number.isFinite(declared)) return true;
  const arrived = req instanceof CountedRequest ? req.bodyBytesArrived : 0;
  return declared - arrived > UNREAD_BODY_LIMIT_BYTES;
}

/**
 * The answer of every HTTP face (one rule for all, issue 29 item 2): an answer that starts while
 * more than 64 KiB of its request's body has yet to arrive says `Connection: close`, and node
 * closes the connection once it is written, instead of reading the rest to keep the connection.
 * A face answers before the body is in only when it will not use it (401, 404, 405, 413, 503).
 *
 * The close is staged (RFC 9112 §9.6, "Tear-down"): the server ends its side once the answer is
 * written, then goes on reading and dropping what the client still sends, until the client ends
 * its side, {@link STAGED_CLOSE_MS} have passed or {@link STAGED_CLOSE_BYTES} more have come, and
 * only then drops the connection. A client still sending its body when the answer comes would
 * otherwise meet a reset, which can discard the answer before it reads it (a 413 to a streamed
 * body seen as `EPIPE` and no answer).
 */
export class BoundedResponse extends ServerResponse<IncomingMessage> {}

const writeHead = ServerResponse.prototype.writeHead as (
  this: ServerResponse,
  ...args: unknown[]
) => ServerResponse;
BoundedResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
  if (!this.headersSent && unreadBodyOverLimit(this.req)) {
    this.shouldKeepAlive = false;
    if (this.socket) stageClose(this.socket);
  }
  return writeHead.apply(this, args);
} as ServerResponse['writeHead'];

/**
 * Node closes a connection whose answer said `Connection: close` with `destroySoon()`: its end,
 * then, once written, its destruction. On this socket the destruction waits for the client (see
 * {@link BoundedResponse}); the HTTP server's sockets are half-open, so they still read.
 */
function stageClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    if (this.destroyed) return;
    const drop = () => this.destroy();
    const timer = setTimeout(drop, STAGED_CLOSE_MS);
    timer.unref();
    let lingered = 0;
    this.on('data', (chunk: Buffer) => {
      lingered += chunk.length;
      if (lingered > STAGED_CLOSE_BYTES) drop();
    });
    this.once('end', drop);
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * Options every HTTP face passes to `createServer`: the check interval (it can only be set there)
 * and the request and answer classes that bound an unread body.
 */
export const HTTP_SERVER_OPTIONS: Readonly<ServerOptions> = Object.freeze({
  connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
  IncomingMessage: CountedRequest,
  ServerResponse: BoundedResponse as typeof ServerResponse,
});

/**
 * The slow-client bounds every HTTP face of the simulators shares (docs/simulator.md, "The PBX web
 * server"): the head within `HEADERS_TIMEOUT_MS`, the whole request within `requestTimeoutMs`,
 * idle keep-alive connections closed after 5 s.
 */
export function boundSlowClients(server: Server, requestTimeoutMs = 30_000): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = 5_000;
}
