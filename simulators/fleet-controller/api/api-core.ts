import { commitAcknowledge, resolveItem } from '../model/acknowledge.ts';
import type { Authenticator } from '../model/authenticator.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { historyList } from '../model/history-view.ts';
import { COMMENT_MAX_CHARS, charCount } from '../model/text-limits.ts';
import type { Account } from '../model/types.ts';
import type { ApiRequest, ApiResponse } from './api-messages.ts';
import { type FleetErrorCode, fleetError, MESSAGES } from './error-body.ts';
import { ifNoneMatchHits } from './etag.ts';
import { SiteListCache } from './site-list-cache.ts';

export type { ApiRequest, ApiResponse } from './api-messages.ts';

/** One line of the controller's request log: never headers, bodies, passwords or tokens. */
export interface RequestLogEntry {
  face: 'api' | 'mcp' | 'control' | 'ingest';
  method: string;
  path: string;
  status: number;
  accountId?: string;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

/** FLEET-BASE-PATH */
export const API_BASE = '/api/v1';

/** Every JSON answer is UTF-8 and says so; request bodies are read as UTF-8 (FLEET-JSON-UTF8). */
const JSON_TYPE = 'application/json; charset=utf-8';
const SITES_PATH = `${API_BASE}/sites`;
const API_PREFIX = `${API_BASE}/`;
const HISTORY = /^\/api\/v1\/sites\/([^/]+)\/history$/;
const ACK = /^\/api\/v1\/sites\/([^/]+)\/attention\/([^/]+)\/acknowledge$/;

/**
 * The REST core of interface B (maintenance-and-fleet-api.md, "Endpoints / Interface B"):
 * request in, response out, no sockets. The node:http adapter (`http-adapter.ts`) only moves bytes.
 *
 * Check order (FLEET-UNSPEC-403-VS-404, FLEET-UNSPEC-ACK-BODY): path outside `/api/v1` → 404;
 * credentials → 401; unknown route → 404, wrong method → 405; site or item not addressable → 404;
 * Viewer → 403; body → 400; then the acknowledgement. The reads (site list, history) check no
 * role, so a Viewer reads like any account (FLEET-AUTH-VIEWER-READS); only the acknowledge refuses
 * a Viewer.
 */
export function createApiCore(
  state: FleetState,
  auth: Authenticator,
  log: RequestLogger = () => {},
  options: { sitesPerBlock?: number } = {},
) {
  const siteLists = new SiteListCache(state, options.sitesPerBlock);
  /**
   * Answers at once when the credentials are remembered (the common poller, issue 31 §3), else
   * after the password check; the adapter writes either.
   */
  return function handle(req: ApiRequest): ApiResponse | Promise<ApiResponse> {
    const queryAt = req.url.indexOf('?');
    let path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
    if (path !== API_BASE && !path.startsWith(API_PREFIX)) return done(req, path, empty(404));
    const header = req.headers['authorization'];
    const remembered = auth.rememberedBasic(header);
    if (remembered) return route(req, path, remembered);
    return auth
      .basic(header)
      .then((account) => (account ? route(req, path, account) : done(req, path, unauthorized())));
  };

  function done(req: ApiRequest, path: string, res: ApiResponse, account?: Account): ApiResponse {
    const entry: RequestLogEntry = { face: 'api', method: req.method, path, status: res.status };
    if (account) entry.accountId = account.id;
    log(entry);
    return res;
  }

  function route(req: ApiRequest, path: string, account: Account): ApiResponse {
    // FLEET-AUTH-VIEWER-READS: no role check on the reads.
    if (path === SITES_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return done(req, path, methodNotAllowed('GET, HEAD'), account);
      return done(req, path, getSites(siteLists, account, req), account);
    }
    const history = HISTORY.exec(path);
    if (history) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return done(req, path, methodNotAllowed('GET, HEAD'), account);
      const siteId = decode(history[1]);
      // FLEET-AUTH-FOREIGN-SITE-HISTORY-404, FLEET-ERR-404-SITE-UNKNOWN
      if (
        siteId === null ||
        !state.access.sites.has(siteId) ||
        !state.access.rightOf(account.partnerId, siteId)
      ) {
        return done(req, path, empty(404), account);
      }
      return done(req, path, json(200, historyList(state, account, siteId), req.method === 'HEAD'), account);
    }
    const ack = ACK.exec(path);
    if (ack) {
      if (req.method !== 'POST') return done(req, path, methodNotAllowed('POST'), account);
      return done(req, path, acknowledge(state, account, decode(ack[1]), ack[2] ?? '', req), account);
    }
    return done(req, path, empty(404), account);
  }
}

/**
 * FLEET-SITES-LIST, FLEET-SITES-NOT-MODIFIED: the caller's site list with a strong ETag; a
 * matching `If-None-Match` gets 304 with the ETag and no body. The rendered list and its ETag
 * come from the partner's cache entry, rendered again only after something it shows changed.
 */
function getSites(siteLists: SiteListCache, account: Account, req: ApiRequest): ApiResponse {
  const list = siteLists.get(account.partnerId);
  if (ifNoneMatchHits(req.headers['if-none-match'], list.etag)) return list.notModified;
  if (req.method === 'GET') return list.ok;
  // HEAD: the 200's headers without its body (the list's bytes are not joined for it), its
  // Content-Length the GET's (RFC 9110 §8.6: a HEAD answer's Content-Length is the GET's length).
  const headers = { etag: list.etag, 'cache-control': 'private, no-cache', vary: 'Authorization' };
  return {
    status: 200,
    headers: { ...headers, 'content-type': JSON_TYPE, 'content-length': String(list.length) },
  };
}

/** FLEET-ACK-ENDPOINT and its errors (FLEET-ERR-400-COMMENT-TOO-LONG, FLEET-AUTH-VIEWER-ACK-403). */
function acknowledge(
  state: FleetState,
  account: Account,
  siteId: string | null,
  rawId: string,
  req: ApiRequest,
): ApiResponse {
  const attentionId = /^[0-9]{1,15}$/.test(rawId) ? Number(rawId) : Number.NaN;
  if (siteId === null || !Number.isSafeInteger(attentionId) || !state.access.sites.has(siteId))
    return empty(404);
  const item = resolveItem(state, account, siteId, attentionId);
  if (!item) return empty(404);
  if (account.role === 'Viewer') return error(403, 'forbidden', MESSAGES.viewerForbidden);
  const comment = parseComment(req);
  if (typeof comment === 'object' && comment !== null) return error(400, 'invalid_request', comment.message);
  // An acknowledgement through the REST API is a console one (FLEET-HISTORY-CHANNEL-CONSOLE).
  return json(200, commitAcknowledge(state, account, item, comment, 'console'));
}

/**
 * FLEET-ACK-COMMENT-OPTIONAL and FLEET-UNSPEC-ACK-BODY: an empty body means no comment; a non-empty
 * body must be a JSON object sent as `application/json`; `comment` may be absent, `null` or a
 * string of at most 1000 characters (code points); other members are ignored.
 */
function parseComment(req: ApiRequest): string | null | { message: string } {
  const text = req.body?.toString('utf8') ?? '';
  if (text.trim() === '') return null;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { message: MESSAGES.contentType };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: MESSAGES.bodyNotJson };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { message: MESSAGES.bodyNotObject };
  const comment = (body as Record<string, unknown>)['comment'];
  if (comment === undefined || comment === null) return null;
  if (typeof comment !== 'string') return { message: MESSAGES.commentNotString };
  if (charCount(comment) > COMMENT_MAX_CHARS) return { message: MESSAGES.commentTooLong };
  return comment;
}

function decode(segment: string | undefined): string | null {
  try {
    return segment === undefined ? null : decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A JSON answer; for HEAD (`headOnly`) its headers alone, with the GET's Content-Length (RFC 9110 §8.6). */
function json(status: number, value: unknown, headOnly = false): ApiResponse {
  const res: ApiResponse = { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' } };
  const body = JSON.stringify(value);
  if (headOnly) res.headers['content-length'] = String(Buffer.byteLength(body));
  else res.body = body;
  return res;
}

function error(status: number, code: FleetErrorCode, message: string): ApiResponse {
  return json(status, fleetError(code, message));
}

/**
 * 404 and other bodiless answers: no body (FLEET-UNSPEC-401-404-BODY). The 404s of the error table
 * (FLEET-ERR-404-ITEM-UNKNOWN, FLEET-ERR-404-ITEM-OTHER-SITE, FLEET-ERR-404-ITEM-INVISIBLE,
 * FLEET-ERR-404-SITE-FOREIGN, FLEET-ERR-404-SITE-UNKNOWN, FLEET-AUTH-FOREIGN-SITE-HISTORY-404) all
 * take this shape, so a foreign site looks like one that does not exist.
 */
function empty(status: number): ApiResponse {
  return { status, headers: {} };
}

/** FLEET-ERR-401-NOT-SIGNED-IN, FLEET-ERR-401-WRONG-PASSWORD: no body, a Basic challenge. */
function unauthorized(): ApiResponse {
  return { status: 401, headers: { 'www-authenticate': 'Basic realm="fleet", charset="UTF-8"' } };
}

function methodNotAllowed(allow: string): ApiResponse {
  return { status: 405, headers: { allow } };
}

/** 413 for bodies over the adapter's bound (the simulator's choice; the spec names no limit). */
export function payloadTooLarge(): ApiResponse {
  return error(413, 'payload_too_large', MESSAGES.tooLarge);
}
