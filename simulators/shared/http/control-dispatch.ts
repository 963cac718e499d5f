import { ControlRefusal } from '../control/control-error.ts';
import type { StreamAnswer } from '../control/event-stream.ts';
import { UnknownFieldError } from '../deep-merge.ts';
import { ControlInputError } from './control-input-error.ts';
import type { ControlMethod, ControlRoute } from './control-route.ts';

/** A request as the listener hands it over: method, raw target (path and query), body bytes. */
export interface RawControlRequest {
  method: string;
  url: string;
  body?: Buffer;
}

/** The answer to send: status, headers and the JSON text (absent for 204). */
export interface RawControlResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** Server-Sent Events to write instead of a body (the listener keeps the response open). */
  stream?: StreamAnswer;
}

/** The ways a control request fails, each with an HTTP status and a stable `error` code. */
export type ControlFailure =
  | 'invalid_request'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'internal_error';

/** Error body of every failed request: `error` is a stable code, `message` one line for people. */
export interface ControlErrorBody {
  error: string;
  message: string;
}

/**
 * How one control plane words its failures. The PBX and the customer endpoint use the default
 * codes (schemas/pbx-control.openapi.yaml); the fleet controller keeps its own documented codes
 * (schemas/fleet-control.openapi.yaml) and its own errors (409 for a conflict).
 */
export interface ControlDialect {
  /** The `error` code per failure; default the failure's own name. */
  codes?: Partial<Record<ControlFailure, string>>;
  /** A plane's own errors as an answer (status, code, message); `undefined`: the default handling. */
  classify?: (error: unknown) => { status: number; error: string; message: string } | undefined;
}

interface CompiledRoute {
  route: ControlRoute;
  segments: string[];
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function errorResponse(
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
): RawControlResponse {
  const body: ControlErrorBody = { error, message: oneLine(message) };
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

function oneLine(text: string): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

/** Matches concrete segments against a template; returns the decoded parameters or `undefined`. */
function match(template: string[], segments: string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const want = template[i]!;
    const got = segments[i]!;
    if (want.startsWith('{') && want.endsWith('}')) {
      if (got === '') return undefined;
      params[want.slice(1, -1)] = decodeURIComponent(got);
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}

function parseBody(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ControlInputError('the request body is not valid UTF-8');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ControlInputError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The socket-free core of the control server: routes a request through the table and turns the
 * outcome into status, headers and JSON. Unknown path → 404 `not_found`; known path, other method
 * → 405 with `allow`; bad JSON, `ControlInputError`, `UnknownFieldError`, bad percent-encoding →
 * 400 `invalid_request`; a `ControlRefusal` → its status and code (or its body); anything else →
 * the dialect's own errors, else 500 `internal_error`. It never throws.
 */
export function createControlDispatcher(routes: readonly ControlRoute[], dialect: ControlDialect = {}) {
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: splitPath(route.path) }));
  const code = (failure: ControlFailure) => dialect.codes?.[failure] ?? failure;
  return async function dispatch(request: RawControlRequest): Promise<RawControlResponse> {
    try {
      const queryAt = request.url.indexOf('?');
      const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      const query = new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1));
      const segments = splitPath(path);
      const allowed = new Set<ControlMethod>();
      for (const { route, segments: template } of compiled) {
        const params = match(template, segments);
        if (!params) continue;
        if (route.method !== request.method) {
          allowed.add(route.method);
          continue;
        }
        const result = await route.handle({ params, query, body: parseBody(request.body) });
        if (result.stream)
          return { status: result.status, headers: { ...EVENT_STREAM_HEADERS }, stream: result.stream };
        if (result.body === undefined)
          return { status: result.status, headers: { 'cache-control': 'no-store' } };
        return { status: result.status, headers: { ...JSON_HEADERS }, body: JSON.stringify(result.body) };
      }
      if (allowed.size > 0) {
        return errorResponse(405, code('method_not_allowed'), `${request.method} is not allowed on ${path}`, {
          allow: [...allowed].join(', '),
        });
      }
      return errorResponse(404, code('not_found'), `no control operation at ${path}`);
    } catch (error) {
      if (error instanceof ControlRefusal) {
        if (error.body === undefined) return errorResponse(error.status, error.code, error.message);
        return { status: error.status, headers: { ...JSON_HEADERS }, body: JSON.stringify(error.body) };
      }
      const own = dialect.classify?.(error);
      if (own) return errorResponse(own.status, own.error, own.message);
      if (error instanceof ControlInputError || error instanceof UnknownFieldError) {
        return errorResponse(400, code('invalid_request'), error.message);
      }
      if (error instanceof URIError)
        return errorResponse(400, code('invalid_request'), 'the path is not valid percent-encoding');
      return errorResponse(
        500,
        code('internal_error'),
        error instanceof Error ? error.message : String(error),
      );
    }
  };
}
