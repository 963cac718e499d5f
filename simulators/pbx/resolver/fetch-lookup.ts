import { performance } from 'node:perf_hooks';
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
import type { AuthMethod, ProviderMethod } from './provider-config.ts';
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
 * authentication (RESOLVER-AUTH-*), redirects (RESOLVER-REDIRECTS), TLS, and decoding of the
 * last answer. Every step goes to the search log. It never throws for anything the endpoint
 * does: a broken or hostile answer ends as `{ ok: false }` with one clear reason.
 *
 * RESOLVER-REDIRECTS: every 3xx with a `Location` is followed; one without ends as non-2xx.
 * RESOLVER-UNSPEC-REDIRECTS: at most `limits.maxRedirects` (5) redirects; a URL met twice is a
 * loop; 301/302/303 after a POST continue as GET without body, other 3xx keep method and body;
 * credentials (Basic, Bearer, Digest answers) go only to the origin of the provider URL.
 * RESOLVER-UNSPEC-CONNECT-TIMEOUT: the provider timeout aborts nothing; a connect or answer
 * slower than it logs a timeout warning; the overall limit `limits.totalMs` aborts.
 */
export async function performLookup(spec: LookupSpec, log: SearchLogger): Promise<LookupResult> {
  const { limits } = spec;
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(1, limits.totalMs));
  const agent = new LookupAgent({
    verifyCertificate: spec.verifyCertificate,
    trustedCa: spec.trustedCa,
    limits,
  });
  const hops: HopRecord[] = [];
  const digest: DigestReport | null =
    spec.authentication === 'Digest'
      ? { challenged: false, algorithm: null, qop: null, status: null, problem: null }
      : null;
  let firstConnectMs: number | null = null;
  let firstByteMs: number | null = null;
  const timing = (): LookupTiming => {
    const totalMs = performance.now() - started;
    return {
      connectMs: firstConnectMs,
      firstByteMs,
      totalMs,
      timeoutMs: spec.timeoutMs,
      exceeded: (firstConnectMs ?? 0) > spec.timeoutMs || totalMs > spec.timeoutMs,
    };
  };
  const fail = (error: string, kind: Extract<LookupResult, { ok: false }>['kind']): LookupResult => {
    log.error('error', error);
    return { ok: false, error, kind, hops, timing: timing(), digest };
  };

  const homeOrigin = spec.url.origin;
  let origin = spec.url.origin;
  let path = spec.url.path;
  let displayUrl = spec.url.displayUrl;
  let method: ProviderMethod = spec.method;
  let body: string | undefined = method === 'POST' ? postBody(spec.number) : undefined;
  let digestAnswer: { challenge: DigestChallenge; nc: number } | null = null;
  let staleRetried = false;
  const digestTried = new Set<string>();
  const seen = new Set<string>();
  let redirects = 0;

  log.info('url', `${method} ${spec.url.substitutedUrl}`, { method, url: spec.url.substitutedUrl });
  try {
    for (;;) {
      const key = `${method} ${origin}${path}`;
      const headers = requestHeaders(method);
      let sentDigest = false;
      const sameOrigin = origin === homeOrigin;
      if (sameOrigin && spec.authentication === 'Basic') {
        const token = Buffer.from(`${spec.username}:${spec.password}`, 'utf8').toString('base64');
        headers.push(['authorization', `Basic ${token}`]);
      } else if (sameOrigin && spec.authentication === 'Bearer') {
        headers.push(['authorization', `Bearer ${spec.token}`]);
      } else if (sameOrigin && digestAnswer) {
        sentDigest = true;
        headers.push([
          'authorization',
          digestAuthorization({
            challenge: digestAnswer.challenge,
            username: spec.username,
            password: spec.password,
            method,
            uri: path,
            nc: digestAnswer.nc++,
          }),
        ]);
      }
      if (!sameOrigin && spec.authentication !== 'None')
        log.warn('auth', `no credentials sent to ${origin}: it is not the origin of the provider URL`);
      if (hops.length === 0 && (spec.authentication === 'Basic' || spec.authentication === 'Bearer'))
        log.info('auth', `${spec.authentication} credentials sent with the first request`);
      log.expert('encoded-uri', `${method} ${origin}${displayPath(displayUrl)}`, {
        requestTarget: displayPath(displayUrl),
      });
      log.info('request', `${method} ${displayUrl}`);
      const hopStart = performance.now() - started;
      const response = await exchange(
        agent,
        { origin, path, method, headers, body },
        {
          readBody: true,
          signal: controller.signal,
          limits,
        },
      );
      const connect = agent.takeConnects()[0];
      if (connect && firstConnectMs === null) firstConnectMs = connect.ms;
      if (connect) {
        log.info(
          'connect',
          `connected in ${Math.round(connect.ms)} ms${connect.tlsProtocol ? ` (${connect.tlsProtocol})` : ''}`,
          {
            ms: Math.round(connect.ms),
            tls: connect.tlsProtocol,
          },
        );
        if (connect.ms > spec.timeoutMs)
          log.warn(
            'timeout',
            `connection set-up took ${Math.round(connect.ms)} ms, more than the timeout of ${spec.timeoutMs} ms; the request continues`,
          );
      }
      firstByteMs = hopStart + response.headMs;
      const hop: HopRecord = {
        method,
        url: displayUrl,
        status: response.status,
        next: null,
        location: null,
        connectMs: connect ? connect.ms : null,
        tlsProtocol: connect?.tlsProtocol ?? null,
        headMs: response.headMs,
      };
      hops.push(hop);
      if (hops.length > limits.maxRedirects + 3)
        return fail(`gave up after ${hops.length} requests`, 'redirect');

      // Digest: answer a 401 challenge of the provider's own origin (RESOLVER-AUTH-DIGEST), once
      // per URL, and once more when the server marks the nonce stale.
      if (response.status === 401 && spec.authentication === 'Digest' && sameOrigin && digest) {
        const selection = selectDigestChallenge(
          parseChallenges(headerList(response.headers, 'www-authenticate')),
        );
        const fresh = !digestTried.has(key);
        const stale = selection.ok && selection.challenge.stale && !staleRetried;
        if (selection.ok && (fresh || stale)) {
          if (!fresh) staleRetried = true;
          digestTried.add(key);
          digest.challenged = true;
          digest.algorithm = selection.challenge.algorithm;
          digest.qop = selection.challenge.qop;
          digestAnswer = { challenge: selection.challenge, nc: 1 };
          hop.next = 'digest';
          log.info(
            'auth',
            `401 with Digest challenge (algorithm ${selection.challenge.algorithm}, ${selection.challenge.qop ? 'qop=auth' : 'no qop'}); repeating the request with digest authorisation`,
          );
          continue;
        }
        digest.status = 401;
        digest.problem = selection.ok ? 'the endpoint refused the digest authorisation' : selection.reason;
        log.error(
          'auth',
          selection.ok
            ? 'the endpoint refused the digest authorisation (check user name, password and realm)'
            : `cannot answer the Digest challenge: ${selection.reason}`,
        );
      } else if (digest && sentDigest) {
        digest.status = response.status;
      }

      const location = header(response.headers, 'location');
      if (response.status >= 300 && response.status <= 399 && !location)
        log.info('redirect', `${response.status} without a Location header: not followed`, {
          status: response.status,
        });
      if (isRedirect(response.status, location)) {
        let next: URL;
        try {
          next = new URL(location, `${origin}${path}`);
        } catch {
          return fail(`${response.status} redirect to an invalid Location ${location}`, 'redirect');
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          return fail(`${response.status} redirect to a ${next.protocol} URL is not followed`, 'redirect');
        hop.next = 'redirect';
        hop.location = next.href;
        redirects++;
        log.expert('redirect', `${response.status} → ${next.href}`, {
          status: response.status,
          location: next.href,
        });
        if (redirects > limits.maxRedirects)
          return fail(`more than ${limits.maxRedirects} redirects; last Location ${next.href}`, 'redirect');
        seen.add(key);
        const nextMethod: ProviderMethod =
          method === 'POST' && POST_TO_GET_STATUSES.has(response.status) ? 'GET' : method;
        if (nextMethod !== method) {
          log.info('redirect', `${response.status} after POST: continuing with GET without body`);
          body = undefined;
        }
        method = nextMethod;
        origin = next.origin;
        path = `${next.pathname}${next.search}`;
        displayUrl = next.href;
        if (seen.has(`${method} ${origin}${path}`))
          return fail(`redirect loop: ${next.href} was already requested`, 'redirect');
        continue;
      }

      const total = timing();
      if (total.totalMs > spec.timeoutMs)
        log.warn(
          'timeout',
          `the answer took ${Math.round(total.totalMs)} ms, more than the timeout of ${spec.timeoutMs} ms; it was awaited and is evaluated`,
          {
            ms: Math.round(total.totalMs),
            timeoutMs: spec.timeoutMs,
          },
        );
      const contentType = header(response.headers, 'content-type') ?? null;
      const codings = contentCodings(header(response.headers, 'content-encoding'));
      if (response.status < 200 || response.status > 299) {
        log.error('response', `HTTP ${response.status}: the lookup failed; the body is not evaluated`, {
          status: response.status,
        });
        return {
          ok: true,
          status: response.status,
          contentType,
          codings,
          rawBytes: response.rawBody.length,
          body: null,
          hops,
          timing: total,
          digest,
        };
      }
      let decoded: Buffer;
      try {
        decoded = await decompressBody(response.rawBody, codings, limits.maxDecodedBodyBytes);
      } catch (error) {
        if (error instanceof BodyDecodeError) return fail(error.message, 'decode');
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
      if (text.fallbackReason)
        log.warn('body', `${text.fallbackReason}; the body is read as ${text.encoding}`);
      if (text.replaced)
        log.warn('body', `the body is not valid ${text.encoding}; invalid bytes were replaced by U+FFFD`);
      return {
        ok: true,
        status: response.status,
        contentType,
        codings,
        rawBytes: response.rawBody.length,
        body: { ...text, bytes: decoded.length },
        hops,
        timing: timing(),
        digest,
      };
    }
  } catch (error) {
    if (error instanceof ExchangeError) {
      const connect = agent.takeConnects()[0];
      if (connect && firstConnectMs === null) firstConnectMs = connect.ms;
      return fail(error.message, error.kind);
    }
    return fail(`request failed: ${(error as Error).message}`, 'protocol');
  } finally {
    clearTimeout(timer);
    await agent.close();
  }
}

function displayPath(url: string): string {
  const m = /^[a-z]+:\/\/[^/?#]+(.*)$/i.exec(url);
  return m?.[1] || '/';
}
