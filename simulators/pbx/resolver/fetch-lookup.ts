import type { Clock } from '../../shared/clock.ts';
import type { AuthMethod, ProviderMethod } from '../state/provider-config.ts';
import { parseChallenges } from './auth-challenge.ts';
import {
  BodyDecodeError,
  contentCodings,
  type DecodedText,
  decodeText,
  decompressBody,
} from './body-decoder.ts';
import { type DigestChallenge, digestAuthorization, selectDigestChallenge } from './digest-auth.ts';
import { ExchangeError, exchange, type HopResponse, LookupAgent } from './http-exchange.ts';
import { postBody, requestHeaders } from './request-headers.ts';
import type { ResolverLimits } from './resolver-limits.ts';
import type { SearchLogger } from './search-logger.ts';
import type { BuiltUrl } from './url-template.ts';

/**
 * RESOLVER-REDIRECTS: every 3xx answer that carries a `Location` header is followed (the spec
 * says "3xx is followed", not only 301, 302, 303, 307 and 308). A 3xx without `Location` (e.g. a
 * 304) has nowhere to go: it ends the lookup as a non-2xx answer, its body not evaluated.
 */
function isRedirect(status: number, location: string | undefined): location is string {
  return status >= 300 && status <= 399 && location !== undefined && location !== '';
}

/**
 * RESOLVER-UNSPEC-REDIRECTS: after a POST, 301, 302 and 303 go on as GET without body (as
 * browsers do); every other 3xx (307, 308, 300, 305, …) keeps method and body.
 */
const POST_TO_GET_STATUSES = new Set([301, 302, 303]);

export interface LookupSpec {
  method: ProviderMethod;
  url: BuiltUrl;
  /** The number in the provider's format, for the POST body. */
  number: string;
  authentication: AuthMethod;
  username: string;
  password: string;
  token: string;
  verifyCertificate: boolean;
  timeoutMs: number;
  trustedCa?: readonly string[];
  limits: ResolverLimits;
  /**
   * The clock durations and the overall limit are measured on (`durationClock()`): real time,
   * or one the harness shares with its reference endpoint (RESOLVER-TIMEOUT-WARNING).
   */
  clock: Clock;
}

/** One request of the lookup, as the report shows it. */
export interface HopRecord {
  method: ProviderMethod;
  /** Display URL (secrets masked by the logger's masker later; built from the template). */
  url: string;
  status: number;
  /** Why this was not the last request. */
  next: 'redirect' | 'digest' | null;
  location: string | null;
  /** Connection set-up of this request in ms, `null` when a kept-alive connection was reused. */
  connectMs: number | null;
  tlsProtocol: string | null;
  headMs: number;
}

export interface DigestReport {
  challenged: boolean;
  algorithm: string | null;
  qop: string | null;
  /** The answer to the digest retry, if any. */
  status: number | null;
  problem: string | null;
}

export interface LookupTiming {
  /** Set-up of the first connection (the one the provider timeout bounds), ms. */
  connectMs: number | null;
  /** From the start to the head of the last response, ms. */
  firstByteMs: number | null;
  /** From the start to the end of the last body, ms. */
  totalMs: number;
  timeoutMs: number;
  /** Connection set-up or answer took longer than the provider timeout (RESOLVER-TIMEOUT-WARNING). */
  exceeded: boolean;
}

interface LookupCommon {
  hops: HopRecord[];
  timing: LookupTiming;
  digest: DigestReport | null;
}

export type LookupResult =
  | (LookupCommon & {
      ok: true;
      status: number;
      contentType: string | null;
      codings: string[];
      rawBytes: number;
      /** Decoded body; `null` for a non-2xx answer (its body is never evaluated). */
      body: (DecodedText & { bytes: number }) | null;
    })
  | (LookupCommon & {
      ok: false;
      error: string;
      kind: ExchangeError['kind'] | 'redirect' | 'decode' | 'config';
    });

function header(headers: HopResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function headerList(headers: HopResponse['headers'], name: string): string[] {
  const value = headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Runs the HTTP part of one provider query: the request with the header set of its method,
 * authentication (RESOLVER-AUTH-BASIC, RESOLVER-AUTH-BEARER, RESOLVER-AUTH-DIGEST), redirects
 * (RESOLVER-REDIRECTS), TLS, and decoding of the last answer. Every step goes to the search log.
 * It never throws for anything the endpoint does: a broken or hostile answer ends as
 * `{ ok: false }` with one clear reason.
 *
 * RESOLVER-REDIRECTS: every 3xx with a `Location` is followed; one without ends as non-2xx.
 * RESOLVER-UNSPEC-REDIRECTS: at most `limits.maxRedirects` (5) redirects; a URL met twice is a
 * loop; 301/302/303 after a POST continue as GET without body, other 3xx keep method and body;
 * credentials (Basic, Bearer, Digest answers) go only to the origin of the provider URL.
 * RESOLVER-UNSPEC-CONNECT-TIMEOUT: the provider timeout aborts nothing; a connect or answer
 * slower than it logs a timeout warning; the overall limit `limits.totalMs` aborts. So a late
 * answer is awaited and evaluated and can still resolve the number (RESOLVER-SLOW-NOT-ABORTED).
 */
export async function performLookup(spec: LookupSpec, log: SearchLogger): Promise<LookupResult> {
  const lookup = new LookupRun(spec, log);
  const timer = spec.clock.setTimer(() => lookup.abort(), Math.max(1, spec.limits.totalMs));
  try {
    return await lookup.run();
  } finally {
    spec.clock.clearTimer(timer);
    await lookup.close();
  }
}

/** What the next request of a lookup goes to, and with what. */
interface Cursor {
  origin: string;
  path: string;
  displayUrl: string;
  method: ProviderMethod;
  body: string | undefined;
}

/** What a hop's answer means for the lookup: send the next request, or the lookup's result. */
type HopOutcome = { next: true } | { next: false; result: LookupResult };
const NEXT: HopOutcome = { next: true };

/** One lookup's state and its named steps: send a hop, answer Digest, follow a redirect, finish. */
class LookupRun {
  private readonly started: number;
  private readonly controller = new AbortController();
  private readonly agent: LookupAgent;
  private readonly hops: HopRecord[] = [];
  private readonly digest: DigestReport | null;
  private readonly homeOrigin: string;
  private cursor: Cursor;
  private firstConnectMs: number | null = null;
  private firstByteMs: number | null = null;
  private digestAnswer: { challenge: DigestChallenge; nc: number } | null = null;
  private staleRetried = false;
  private readonly digestTried = new Set<string>();
  private readonly seen = new Set<string>();
  private redirects = 0;

  constructor(
    private readonly spec: LookupSpec,
    private readonly log: SearchLogger,
  ) {
    this.started = spec.clock.now();
    this.agent = new LookupAgent({
      clock: spec.clock,
      verifyCertificate: spec.verifyCertificate,
      trustedCa: spec.trustedCa,
      limits: spec.limits,
    });
    this.digest =
      spec.authentication === 'Digest'
        ? { challenged: false, algorithm: null, qop: null, status: null, problem: null }
        : null;
    this.homeOrigin = spec.url.origin;
    this.cursor = {
      origin: spec.url.origin,
      path: spec.url.path,
      displayUrl: spec.url.displayUrl,
      // The configured method is sent: `POST` in expert mode (RESOLVER-METHOD-POST).
      method: spec.method,
      body: spec.method === 'POST' ? postBody(spec.number) : undefined,
    };
  }

  abort(): void {
    this.controller.abort();
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  async run(): Promise<LookupResult> {
    const { method } = this.cursor;
    this.log.info('url', `${method} ${this.spec.url.substitutedUrl}`, {
      method,
      url: this.spec.url.substitutedUrl,
    });
    try {
      for (;;) {
        const outcome = await this.hop();
        if (!outcome.next) return outcome.result;
      }
    } catch (error) {
      if (error instanceof ExchangeError) {
        const connect = this.agent.takeConnects()[0];
        if (connect && this.firstConnectMs === null) this.firstConnectMs = connect.ms;
        return this.fail(error.message, error.kind);
      }
      return this.fail(`request failed: ${(error as Error).message}`, 'protocol');
    }
  }

  /** One request and what its answer means. */
  private async hop(): Promise<HopOutcome> {
    const { spec, log, cursor, limits } = this;
    const key = `${cursor.method} ${cursor.origin}${cursor.path}`;
    const sameOrigin = cursor.origin === this.homeOrigin;
    const { headers, sentDigest } = this.requestHeaders(sameOrigin);
    log.expert('encoded-uri', `${cursor.method} ${cursor.origin}${displayPath(cursor.displayUrl)}`, {
      requestTarget: displayPath(cursor.displayUrl),
    });
    log.info('request', `${cursor.method} ${cursor.displayUrl}`);
    const hopStart = this.spec.clock.now() - this.started;
    const response = await exchange(
      this.agent,
      { origin: cursor.origin, path: cursor.path, method: cursor.method, headers, body: cursor.body },
      { readBody: true, signal: this.controller.signal, limits, clock: spec.clock },
    );
    const hop = this.recordHop(response, hopStart);
    if (this.hops.length > limits.maxRedirects + 3)
      return this.done(this.fail(`gave up after ${this.hops.length} requests`, 'redirect'));
    if (response.status === 401 && spec.authentication === 'Digest' && sameOrigin && this.digest) {
      if (this.answerDigestChallenge(response, hop, key)) return NEXT;
    } else if (this.digest && sentDigest) {
      this.digest.status = response.status;
    }
    const location = header(response.headers, 'location');
    if (response.status >= 300 && response.status <= 399 && !location)
      log.info('redirect', `${response.status} without a Location header: not followed`, {
        status: response.status,
      });
    if (isRedirect(response.status, location))
      return this.followRedirect(response.status, location, hop, key);
    return this.done(await this.finish(response));
  }

  private get limits(): ResolverLimits {
    return this.spec.limits;
  }

  /**
   * The header set of the method plus the credentials, which go only to the provider's origin.
   * Basic (and Bearer) credentials go with the very first request, not only after a 401
   * (RESOLVER-AUTH-BASIC-PREEMPTIVE); Digest answers a challenge. With `None` no branch adds an
   * `Authorization` header: the request carries no credentials (RESOLVER-AUTH-NONE).
   */
  private requestHeaders(sameOrigin: boolean): { headers: [string, string][]; sentDigest: boolean } {
    const { spec, log, cursor } = this;
    const headers = requestHeaders(cursor.method);
    let sentDigest = false;
    if (sameOrigin && spec.authentication === 'Basic') {
      const token = Buffer.from(`${spec.username}:${spec.password}`, 'utf8').toString('base64');
      headers.push(['authorization', `Basic ${token}`]);
    } else if (sameOrigin && spec.authentication === 'Bearer') {
      headers.push(['authorization', `Bearer ${spec.token}`]);
    } else if (sameOrigin && this.digestAnswer) {
      sentDigest = true;
      headers.push([
        'authorization',
        digestAuthorization({
          challenge: this.digestAnswer.challenge,
          username: spec.username,
          password: spec.password,
          method: cursor.method,
          uri: cursor.path,
          nc: this.digestAnswer.nc++,
        }),
      ]);
    }
    if (!sameOrigin && spec.authentication !== 'None')
      log.warn('auth', `no credentials sent to ${cursor.origin}: it is not the origin of the provider URL`);
    if (this.hops.length === 0 && (spec.authentication === 'Basic' || spec.authentication === 'Bearer'))
      log.info('auth', `${spec.authentication} credentials sent with the first request`);
    return { headers, sentDigest };
  }

  /** Logs the connection set-up of the hop (RESOLVER-TIMEOUT-WARNING) and records the hop. */
  private recordHop(response: HopResponse, hopStart: number): HopRecord {
    const { spec, log, cursor } = this;
    const connect = this.agent.takeConnects()[0];
    if (connect && this.firstConnectMs === null) this.firstConnectMs = connect.ms;
    if (connect) {
      log.info(
        'connect',
        `connected in ${Math.round(connect.ms)} ms${connect.tlsProtocol ? ` (${connect.tlsProtocol})` : ''}`,
        { ms: Math.round(connect.ms), tls: connect.tlsProtocol },
      );
      if (connect.ms > spec.timeoutMs)
        log.warn(
          'timeout',
          `connection set-up took ${Math.round(connect.ms)} ms, more than the timeout of ${spec.timeoutMs} ms; the request continues`,
        );
    }
    this.firstByteMs = hopStart + response.headMs;
    const hop: HopRecord = {
      method: cursor.method,
      url: cursor.displayUrl,
      status: response.status,
      next: null,
      location: null,
      connectMs: connect ? connect.ms : null,
      tlsProtocol: connect?.tlsProtocol ?? null,
      headMs: response.headMs,
    };
    this.hops.push(hop);
    return hop;
  }

  /**
   * RESOLVER-AUTH-DIGEST: answers a 401 challenge of the provider's own origin once per URL, and
   * once more when the server marks the nonce stale. Returns whether to send the request again.
   */
  private answerDigestChallenge(response: HopResponse, hop: HopRecord, key: string): boolean {
    const digest = this.digest as DigestReport;
    const selection = selectDigestChallenge(
      parseChallenges(headerList(response.headers, 'www-authenticate')),
    );
    const fresh = !this.digestTried.has(key);
    const stale = selection.ok && selection.challenge.stale && !this.staleRetried;
    if (selection.ok && (fresh || stale)) {
      if (!fresh) this.staleRetried = true;
      this.digestTried.add(key);
      digest.challenged = true;
      digest.algorithm = selection.challenge.algorithm;
      digest.qop = selection.challenge.qop;
      this.digestAnswer = { challenge: selection.challenge, nc: 1 };
      hop.next = 'digest';
      this.log.info(
        'auth',
        `401 with Digest challenge (algorithm ${selection.challenge.algorithm}, ${selection.challenge.qop ? 'qop=auth' : 'no qop'}); repeating the request with digest authorisation`,
      );
      return true;
    }
    digest.status = 401;
    digest.problem = selection.ok ? 'the endpoint refused the digest authorisation' : selection.reason;
    this.log.error(
      'auth',
      selection.ok
        ? 'the endpoint refused the digest authorisation (check user name, password and realm)'
        : `cannot answer the Digest challenge: ${selection.reason}`,
    );
    return false;
  }

  /** RESOLVER-REDIRECTS, RESOLVER-UNSPEC-REDIRECTS: moves the cursor to the Location, within the limits. */
  private followRedirect(status: number, location: string, hop: HopRecord, key: string): HopOutcome {
    const { log, cursor, limits } = this;
    let next: URL;
    try {
      next = new URL(location, `${cursor.origin}${cursor.path}`);
    } catch {
      return this.done(this.fail(`${status} redirect to an invalid Location ${location}`, 'redirect'));
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      return this.done(this.fail(`${status} redirect to a ${next.protocol} URL is not followed`, 'redirect'));
    hop.next = 'redirect';
    hop.location = next.href;
    this.redirects++;
    log.expert('redirect', `${status} → ${next.href}`, { status, location: next.href });
    if (this.redirects > limits.maxRedirects)
      return this.done(
        this.fail(`more than ${limits.maxRedirects} redirects; last Location ${next.href}`, 'redirect'),
      );
    this.seen.add(key);
    const nextMethod: ProviderMethod =
      cursor.method === 'POST' && POST_TO_GET_STATUSES.has(status) ? 'GET' : cursor.method;
    if (nextMethod !== cursor.method) {
      log.info('redirect', `${status} after POST: continuing with GET without body`);
      cursor.body = undefined;
    }
    cursor.method = nextMethod;
    cursor.origin = next.origin;
    cursor.path = `${next.pathname}${next.search}`;
    cursor.displayUrl = next.href;
    if (this.seen.has(`${cursor.method} ${cursor.origin}${cursor.path}`))
      return this.done(this.fail(`redirect loop: ${next.href} was already requested`, 'redirect'));
    return NEXT;
  }

  /** The last answer: a non-2xx ends unevaluated; a 2xx body is decompressed and decoded. */
  private async finish(response: HopResponse): Promise<LookupResult> {
    const { spec, log, limits } = this;
    const total = this.timing();
    // Over the provider timeout: warned about, not aborted; the answer is still evaluated
    // (RESOLVER-SLOW-NOT-ABORTED).
    if (total.totalMs > spec.timeoutMs)
      log.warn(
        'timeout',
        `the answer took ${Math.round(total.totalMs)} ms, more than the timeout of ${spec.timeoutMs} ms; it was awaited and is evaluated`,
        { ms: Math.round(total.totalMs), timeoutMs: spec.timeoutMs },
      );
    const contentType = header(response.headers, 'content-type') ?? null;
    const codings = contentCodings(header(response.headers, 'content-encoding'));
    const common = {
      contentType,
      codings,
      rawBytes: response.rawBody.length,
      hops: this.hops,
      digest: this.digest,
    };
    if (response.status < 200 || response.status > 299) {
      log.error('response', `HTTP ${response.status}: the lookup failed; the body is not evaluated`, {
        status: response.status,
      });
      return { ok: true, status: response.status, ...common, body: null, timing: total };
    }
    let decoded: Buffer;
    try {
      decoded = await decompressBody(response.rawBody, codings, limits.maxDecodedBodyBytes);
    } catch (error) {
      if (error instanceof BodyDecodeError) return this.fail(error.message, 'decode');
      throw error;
    }
    const text = decodeText(decoded, contentType ?? undefined);
    log.info(
      'response',
      `HTTP ${response.status}, ${response.rawBody.length} bytes${codings.length ? ` ${codings.join('+')} (${decoded.length} decoded)` : ''}, ${contentType ?? 'no Content-Type'}`,
      {
        status: response.status,
        bytes: response.rawBody.length,
        decodedBytes: decoded.length,
        encoding: codings.join(',') || 'identity',
        charset: text.encoding,
      },
    );
    if (text.declared === null)
      log.warn('body', `no charset in Content-Type; the body is read as ${text.encoding}`);
    if (text.fallbackReason) log.warn('body', `${text.fallbackReason}; the body is read as ${text.encoding}`);
    if (text.replaced)
      log.warn('body', `the body is not valid ${text.encoding}; invalid bytes were replaced by U+FFFD`);
    return {
      ok: true,
      status: response.status,
      ...common,
      body: { ...text, bytes: decoded.length },
      timing: this.timing(),
    };
  }

  private timing(): LookupTiming {
    const totalMs = this.spec.clock.now() - this.started;
    return {
      connectMs: this.firstConnectMs,
      firstByteMs: this.firstByteMs,
      totalMs,
      timeoutMs: this.spec.timeoutMs,
      exceeded: (this.firstConnectMs ?? 0) > this.spec.timeoutMs || totalMs > this.spec.timeoutMs,
    };
  }

  private fail(error: string, kind: Extract<LookupResult, { ok: false }>['kind']): LookupResult {
    this.log.error('error', error);
    return { ok: false, error, kind, hops: this.hops, timing: this.timing(), digest: this.digest };
  }

  private done(result: LookupResult): HopOutcome {
    return { next: false, result };
  }
}

function displayPath(url: string): string {
  const m = /^[a-z]+:\/\/[^/?#]+(.*)$/i.exec(url);
  return m?.[1] || '/';
}
