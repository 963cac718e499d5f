import type { IncomingMessage } from 'node:http';
import type { RawBody } from './raw-body-request.ts';

/** How a request authenticates. */
export type ApiAuth =
  /** `Authorization: Bearer <token>`. */
  | { kind: 'bearer'; token: string }
  /** No `Authorization` header at all. */
  | { kind: 'none' }
  /** This exact `Authorization` value (another scheme, a malformed header). */
  | { kind: 'header'; value: string };

export interface ApiRequest {
  method: string;
  /** Path below the target's API base (`/system-functions`), or below `webUrl` when `fromWebRoot`. */
  path: string;
  fromWebRoot?: boolean;
  auth: ApiAuth;
  headers?: Record<string, string>;
  /** The body as text (sent as UTF-8 with its byte length), or a raw/streamed body. */
  body?: string | RawBody;
  /** Local address to connect from (MAINT-AUTH-NO-IP-RESTRICTION). */
  localAddress?: string;
  timeoutMs?: number;
}

/** A response as pactum's `expect` takes it: the message plus the body as text and parsed JSON. */
export type ApiResponse = IncomingMessage & { text: string; json: unknown; body: unknown };

/** One request to interface A and what came back. */
export interface ApiExchange {
  request: ApiRequest;
  url: string;
  /** Absent when no HTTP answer came (see `error`). */
  response?: ApiResponse;
  status?: number;
  /** The body text of the answer (`''` without one). */
  text: string;
  /** The parsed body, when the body is JSON. */
  json?: unknown;
  /** Why no answer came: refused, reset, timed out. */
  error?: string;
  /** Request bytes written before the answer came (raw bodies only). */
  bytesSent?: number;
}
