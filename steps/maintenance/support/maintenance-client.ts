import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import pactum from 'pactum';
import type { PbxWorld } from '../../support/world.ts';
import { READ_TIMEOUT_MS, redactAuth } from '../../support/world.ts';
import type { ApiAuth, ApiExchange, ApiRequest, ApiResponse } from './api-exchange.ts';
import { maintenanceContext } from './maintenance-context.ts';
import { type RawBody, sendRawBody } from './raw-body-request.ts';
import { redactAuthorization } from './redact-authorization.ts';

// pactum prints failing requests with their headers; the Authorization header is a secret.
pactum.settings.setLogLevel('SILENT');

/** The fixed base path of interface A (MAINT-BASE-PATH; MAINT-UNSPEC-PATH-V1: not `…/v1/v1`). */
export const FIXED_BASE_PATH = '/fp/7ce0d8df/api/v1';

/** A POST of a system action, after which a real PBX restarts or updates (hooks wait for it). */
const SYSTEM_ACTION_PATH = /\/(RestartPbx|UpdatePbx)$/;

/** Real-time limit for a request whose body is a mebibyte or more. */
export const LARGE_BODY_TIMEOUT_MS = 30_000;

/** The target's interface A, or a reason it cannot be used, for `notVerifiable`. */
export function apiBaseUrl(world: PbxWorld, request: Pick<ApiRequest, 'fromWebRoot'>): string {
  const maintenance = world.pbx.maintenance;
  if (!maintenance) throw new Error(`target "${world.target.name}" describes no maintenance API`);
  return request.fromWebRoot ? world.pbx.webUrl : `${world.pbx.webUrl}${maintenance.basePath}`;
}

function authorizationValue(auth: ApiAuth): string | undefined {
  switch (auth.kind) {
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'none':
      return undefined;
    case 'header':
      return auth.value;
  }
}

function bodyEvidence(body: ApiRequest['body']): string {
  if (body === undefined) return '(no body)';
  if (typeof body === 'string') {
    const bytes = Buffer.byteLength(body);
    return bytes <= 600 ? body : `[${bytes} bytes] ${body.slice(0, 300)}…`;
  }
  return body.kind === 'bytes'
    ? `[${body.bytes.length} bytes] ${body.bytes.subarray(0, 300).toString('utf8')}…`
    : `[streamed: ${body.totalBytes} bytes in chunks of ${body.chunkBytes}${body.declareLength ? ', with Content-Length' : ', chunked'}]`;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends one request to interface A and keeps the exchange (every scenario of
 * features/maintenance/ that calls the API). Ordinary requests go through
 * pactum. Bodies given as `RawBody` go through node:http instead (raw-body-request.ts), because
 * pactum buffers the whole body as one string and cannot stream 100 MB or stop sending when the
 * server answers 413 early. The exchange is attached as evidence with the token redacted.
 */
export async function sendApiRequest(
  world: PbxWorld,
  request: ApiRequest,
  { evidence = true, record = true } = {},
): Promise<ApiExchange> {
  const url = `${apiBaseUrl(world, request)}${request.path}`;
  const authorization = authorizationValue(request.auth);
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (authorization !== undefined) headers['Authorization'] = authorization;
  const timeoutMs = request.timeoutMs ?? READ_TIMEOUT_MS;
  const exchange =
    request.body !== undefined && typeof request.body !== 'string'
      ? await rawExchange(request, url, headers, request.body, timeoutMs)
      : await pactumExchange(request, url, headers, timeoutMs);
  if (record) maintenanceContext(world).exchanges.push(exchange);
  if (request.method === 'POST' && exchange.status === 200 && SYSTEM_ACTION_PATH.test(request.path)) {
    maintenanceContext(world).systemActionAccepted = true;
  }
  if (evidence) attachEvidence(world, exchange, authorization);
  return exchange;
}

async function pactumExchange(
  request: ApiRequest,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ApiExchange> {
  const spec = pactum
    .spec()
    .withMethod(request.method)
    .withPath(url)
    .withHeaders(headers)
    .withRequestTimeout(timeoutMs)
    .withFollowRedirects(false);
  if (request.body !== undefined && request.body !== '') spec.withBody(request.body);
  if (request.localAddress) spec.withCore({ localAddress: request.localAddress });
  try {
    const response = (await spec.toss()) as ApiResponse;
    if (typeof response?.statusCode !== 'number') {
      return { request, url, text: '', error: describeError(response) };
    }
    const text = typeof response.text === 'string' ? response.text : '';
    const json = parseJson(text);
    return {
      request,
      url,
      response,
      status: response.statusCode,
      text,
      ...(json === undefined ? {} : { json }),
    };
  } catch (error) {
    return { request, url, text: '', error: describeError(error) };
  }
}

async function rawExchange(
  request: ApiRequest,
  url: string,
  headers: Record<string, string>,
  body: RawBody,
  timeoutMs: number,
): Promise<ApiExchange> {
  const outcome = await sendRawBody({
    url,
    method: request.method,
    headers,
    body,
    timeoutMs,
    ...(request.localAddress ? { localAddress: request.localAddress } : {}),
  });
  if (!outcome.response) {
    return { request, url, text: '', error: outcome.error ?? 'no answer', bytesSent: outcome.bytesSent };
  }
  const json = parseJson(outcome.text);
  // The steps read a raw answer as they read pactum's, and pactum's expect() reads only node:http
  // answers: the raw answer takes that form (an IncomingMessage on a socket never connected).
  const response: ApiResponse = Object.assign(new IncomingMessage(new Socket()), {
    ...outcome.response,
    text: outcome.text,
    json,
    body: json ?? outcome.text,
  });
  return {
    request,
    url,
    response,
    status: response.statusCode ?? 0,
    text: outcome.text,
    ...(response.json === undefined ? {} : { json: response.json }),
    bytesSent: outcome.bytesSent,
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (error && typeof error === 'object' && 'code' in error) return String((error as { code: unknown }).code);
  return String(error);
}

function attachEvidence(world: PbxWorld, exchange: ApiExchange, authorization: string | undefined): void {
  const { request } = exchange;
  const path = redactAuth(
    new URL(exchange.url).pathname + new URL(exchange.url).search,
    world.pbx.xmlrpc.authParam,
  );
  // A session cookie is a secret like a token (MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH).
  const requestHeaders = Object.entries(request.headers ?? {}).map(([name, value]) =>
    name.toLowerCase() === 'cookie' ? `${name}: <redacted, ${value.length} chars>` : `${name}: ${value}`,
  );
  world.evidence({
    exchange: `HTTP ${request.method} ${new URL(exchange.url).pathname}`,
    request: [
      `${request.method} ${path}`,
      `Authorization: ${redactAuthorization(authorization)}`,
      ...requestHeaders,
      '',
      bodyEvidence(request.body),
    ].join('\n'),
    response: exchange.response
      ? [
          `${exchange.status} ${exchange.response.statusMessage ?? ''}`.trim(),
          `Content-Type: ${String(exchange.response.headers['content-type'] ?? '(none)')}`,
          '',
          exchange.text,
        ].join('\n')
      : `(no answer: ${exchange.error})`,
    ...(exchange.bytesSent !== undefined ? { details: { bytesSent: exchange.bytesSent } } : {}),
  });
}
