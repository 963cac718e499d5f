import { rootCertificates, type TLSSocket } from 'node:tls';
import { buildConnector, Client, errors } from 'undici';
import type { Clock } from '../../shared/clock.ts';
import type { ResolverLimits } from './resolver-limits.ts';

/** What one connection set-up took (TCP and, for https, the TLS handshake). */
export interface ConnectRecord {
  ms: number;
  /** `TLSv1.3`, `TLSv1.2`, or `null` for plain http. */
  tlsProtocol: string | null;
}

export interface ExchangeTransport {
  /** Connection set-ups are timed on it (fetch-lookup.ts, `LookupSpec.clock`). */
  clock: Clock;
  verifyCertificate: boolean;
  /** PEM certificates the simulated PBX runtime trusts besides Node's roots. */
  trustedCa?: readonly string[];
  limits: ResolverLimits;
}

/** The reason every lookup's clients are destroyed with, made once. */
const LOOKUP_DONE = new Error('the provider lookup is over');

/**
 * The connections of one provider lookup: one undici `Client` per origin the lookup reaches (the
 * provider's, and those its redirects lead to), made when first needed — a lookup's requests go
 * one after another, so one connection per origin serves them, and a kept-alive one is reused
 * (the Digest retry, a redirect to the same origin). A `Client` rather than an `Agent`, which
 * builds a pool and a client per origin and clones its options for each (issue 31 §3). The
 * connector times every connection set-up (RESOLVER-UNSPEC-CONNECT-TIMEOUT: the connect is not
 * aborted at the provider timeout, only at the overall limit) and applies the TLS rules: TLS 1.2
 * and 1.3 (RESOLVER-TLS-VERSIONS), the runtime's trust store (RESOLVER-TLS-TRUST-STORE), the
 * per-provider switch (RESOLVER-TLS-CHECK-OFF) and no separate host-name check
 * (RESOLVER-TLS-NO-HOSTNAME).
 */
export class LookupAgent {
  private readonly clients = new Map<string, Client>();
  private readonly connects: ConnectRecord[] = [];
  private readonly options: Client.Options;

  constructor(transport: ExchangeTransport) {
    const { limits, clock } = transport;
    const ca = transport.trustedCa?.length ? [...rootCertificates, ...transport.trustedCa] : undefined;
    const base = buildConnector({
      rejectUnauthorized: transport.verifyCertificate,
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
      checkServerIdentity: () => undefined,
      timeout: Math.max(1, limits.totalMs),
      ...(ca ? { ca } : {}),
    });
    this.options = {
      connect: (options, callback) => {
        const started = clock.now();
        base(options, (error, socket) => {
          if (!error && socket) {
            const tls = (socket as TLSSocket).getProtocol?.() ?? null;
            this.connects.push({ ms: clock.now() - started, tlsProtocol: tls });
            callback(null, socket);
          } else callback(error as Error, null);
        });
      },
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: Math.max(1, limits.totalMs),
      bodyTimeout: Math.max(1, limits.totalMs),
      pipelining: 1,
    };
  }

  /** The client of `origin`, made on first use. */
  client(origin: string): Client {
    let client = this.clients.get(origin);
    if (!client) {
      client = new Client(origin, this.options);
      this.clients.set(origin, client);
    }
    return client;
  }

  /** Connection set-ups since the last call. */
  takeConnects(): ConnectRecord[] {
    return this.connects.splice(0);
  }

  /**
   * Ends every connection of the lookup at once. The reason is one shared error: `destroy()`
   * without one builds an undici error with its stack trace per lookup, which was a tenth of the
   * client's CPU per lookup (bench/resolver.bench.ts); nothing of the lookup waits on it any more.
   */
  async close(): Promise<void> {
    const closing = [...this.clients.values()].map((client) => client.destroy(LOOKUP_DONE).catch(() => {}));
    this.clients.clear();
    await Promise.all(closing);
  }
}

export interface HopRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: [string, string][];
  body?: string;
}

export interface HopResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Body bytes as received (still compressed). Empty unless `readBody` was set. */
  rawBody: Buffer;
  /** ms from sending to the response head. */
  headMs: number;
  /** ms from sending to the end of the body. */
  doneMs: number;
}

export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'tls' | 'timeout' | 'limit' | 'closed' | 'protocol',
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

/** Turns undici and socket errors into one clear line for the search log. */
export function describeTransportError(error: unknown, limits: ResolverLimits): ExchangeError {
  if (error instanceof ExchangeError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const message = err.message ?? String(error);
  if (err.name === 'AbortError' || code === 'ABORT_ERR' || error instanceof errors.RequestAbortedError)
    return new ExchangeError(`aborted after the overall limit of ${limits.totalMs} ms`, 'timeout');
  if (error instanceof errors.HeadersOverflowError || code === 'UND_ERR_HEADERS_OVERFLOW')
    return new ExchangeError(`the response head exceeds ${limits.maxHeaderBytes} bytes`, 'limit');
  if (error instanceof errors.ConnectTimeoutError)
    return new ExchangeError(
      `connection set-up exceeded the overall limit of ${limits.totalMs} ms`,
      'timeout',
    );
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
    return new ExchangeError(`no complete answer within ${limits.totalMs} ms`, 'timeout');
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|SSL|certificate/i.test(`${code} ${message}`))
    return new ExchangeError(`TLS failed: ${code || message}`, 'tls');
  if (error instanceof errors.SocketError || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    return new ExchangeError(`the connection closed before the answer was complete (${message})`, 'closed');
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT'].includes(code))
    return new ExchangeError(`cannot connect: ${code}`, 'connect');
  if (
    code === 'HPE_INVALID_CONSTANT' ||
    code.startsWith('HPE_') ||
    error instanceof errors.ResponseContentLengthMismatchError
  )
    return new ExchangeError(`invalid HTTP answer: ${code || message}`, 'protocol');
  return new ExchangeError(`request failed: ${code ? `${code} ` : ''}${message}`, 'protocol');
}

/**
 * Sends one request and waits for its answer. With `readBody` the body is read up to
 * `maxRawBodyBytes` (more ends the request: an endless body cannot fill memory); otherwise it is
 * discarded. Everything is bounded by `signal` (the overall limit).
 */
export async function exchange(
  lookup: LookupAgent,
  request: HopRequest,
  options: { readBody: boolean; signal: AbortSignal; limits: ResolverLimits; clock: Clock },
): Promise<HopResponse> {
  const { clock } = options;
  const started = clock.now();
  let response: Awaited<ReturnType<Client['request']>>;
  try {
    response = await lookup.client(request.origin).request({
      path: request.path,
      method: request.method,
      headers: request.headers.flat(),
      body: request.body ?? null,
      signal: options.signal,
    });
  } catch (error) {
    throw describeTransportError(error, options.limits);
  }
  const headMs = clock.now() - started;
  const chunks: Buffer[] = [];
  let size = 0;
  const limit = options.readBody ? options.limits.maxRawBodyBytes : 64 * 1024;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        response.body.destroy();
        if (!options.readBody) break;
        throw new ExchangeError(`the body exceeds ${limit} bytes as received`, 'limit');
      }
      if (options.readBody) chunks.push(chunk);
    }
  } catch (error) {
    response.body.destroy();
    if (error instanceof ExchangeError) throw error;
    // RFC 9112 section 6.3: a 204 or 304 answer ends with its head, whatever Content-Length it
    // names (a 304 may carry the length of the representation); undici reports a length mismatch.
    if (
      (response.statusCode === 204 || response.statusCode === 304) &&
      (error instanceof errors.ResponseContentLengthMismatchError ||
        (error as { code?: string }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    )
      return {
        status: response.statusCode,
        headers: response.headers,
        rawBody: Buffer.alloc(0),
        headMs,
        doneMs: clock.now() - started,
      };
    const described = describeTransportError(error, options.limits);
    if (described.kind === 'closed' || described.kind === 'protocol')
      throw new ExchangeError(`the connection closed in mid-body after ${size} bytes`, 'closed');
    throw described;
  }
  return {
    status: response.statusCode,
    headers: response.headers,
    rawBody: Buffer.concat(chunks),
    headMs,
    doneMs: clock.now() - started,
  };
}
