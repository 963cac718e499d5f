import pactum from 'pactum';
import type { EvidenceAttachment } from '../../../src/report/attachments.ts';
import { bytesAsEvidence } from '../../support/evidence.ts';

/** Real-time limit of one REST request (pactum's own default, 3 s, is too tight for scrypt sign-ins). */
export const REST_TIMEOUT_MS = 10_000;

/** How a REST request authenticates. */
export type RestAuth =
  | { kind: 'none' }
  | { kind: 'basic'; email: string; password: string }
  /** A raw `Authorization` value, for malformed credentials. */
  | { kind: 'header'; value: string };

export interface RestRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  auth: RestAuth;
  /** Who asks, for evidence (`partner`, `no credentials`, …). */
  who: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One answer of interface B as the harness keeps it. */
export interface FleetResponse {
  request: RestRequest;
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  /** The body parsed as JSON; `undefined` when it is empty or not JSON. */
  json: unknown;
  /** pactum's response, for `pactum.expect(raw)`. */
  raw: unknown;
}

interface PactumResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  buffer?: Buffer;
  text?: string;
}

/** Sends one request through pactum (no expectations: the Then steps assert). */
export async function restExchange(req: RestRequest): Promise<FleetResponse> {
  let spec = pactum
    .spec()
    .withMethod(req.method as 'GET')
    .withPath(req.url)
    .withRequestTimeout(REST_TIMEOUT_MS)
    // pactum prints failing requests with their headers; credentials must never reach a log.
    .useLogLevel('SILENT');
  if (req.auth.kind === 'basic') spec = spec.withAuth(req.auth.email, req.auth.password);
  const headers: Record<string, string> = { ...req.headers };
  if (req.auth.kind === 'header') headers['Authorization'] = req.auth.value;
  if (Object.keys(headers).length > 0) spec = spec.withHeaders(headers);
  if (req.body !== undefined) spec = spec.withBody(req.body);
  const res = (await spec.toss()) as PactumResponse;
  const bytes = res.buffer ?? Buffer.from(res.text ?? '', 'utf8');
  const text = bytes.toString('utf8');
  let json: unknown;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { request: req, status: res.statusCode, headers: flat, bytes, text, json, raw: res };
}

/** The exchange as evidence; credentials are named, never shown (a Basic password, a token). */
export function restEvidence(res: FleetResponse): EvidenceAttachment {
  const { request } = res;
  const lines = [`${request.method} ${request.url}`];
  if (request.auth.kind === 'basic')
    lines.push(`Authorization: Basic <credentials of ${request.auth.email}>`);
  if (request.auth.kind === 'header') lines.push('Authorization: <redacted>');
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('', request.body);
  const head = [`${res.status}`, ...Object.entries(res.headers).map(([n, v]) => `${n}: ${v}`)];
  return {
    exchange: `${request.method} ${new URL(request.url).pathname} as ${request.who}`,
    request: lines.join('\n'),
    response: `${head.join('\n')}\n\n${bytesAsEvidence(res.bytes)}`,
  };
}
