import { request } from 'undici';
import type { RawControlRequest, RawControlResponse } from '../http/control-dispatch.ts';
import { ControlError } from './control-error.ts';
import {
  type ControlClient,
  type ControlOperation,
  type ControlOperations,
  objectFields,
  pathParameters,
} from './control-operation.ts';

/** Real-time limit per request, so a dead or stuck control plane never hangs the harness. */
export const CONTROL_REQUEST_TIMEOUT_MS = 10_000;

/** Longest error text taken from a server that does not answer with the JSON error body. */
const MAX_ERROR_TEXT = 300;

/** One request as a client sends it: method, path with query (below the base URL), JSON text. */
export interface WireRequest {
  method: string;
  url: string;
  body?: string;
  /** Real time the operation may take beyond the transport's own limit (a wait). */
  waitMs: number;
}

/** How a client reaches a control plane: over HTTP, or straight into its dispatcher. */
export type ControlTransport = (wire: WireRequest) => Promise<{ status: number; body: string }>;

export interface HttpTransportOptions {
  /** The control plane's bearer token, when it requires one (a control plane beyond loopback). */
  token?: string | undefined;
  /** Real-time limit per request (default `CONTROL_REQUEST_TIMEOUT_MS`); a wait adds its own time. */
  timeoutMs?: number;
}

/**
 * The control plane over HTTP (undici), below `baseUrl` (which may carry a path prefix such as
 * `/pbx/site-1`). Every request has a real-time timeout; no answer becomes a `ControlError` with
 * status 0 and code `unreachable`.
 */
export function httpTransport(baseUrl: string, options: HttpTransportOptions = {}): ControlTransport {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? CONTROL_REQUEST_TIMEOUT_MS;
  return async (wire) => {
    const limit = timeoutMs + wire.waitMs;
    try {
      const response = await request(`${base}${wire.url}`, {
        method: wire.method as 'GET',
        headers: {
          accept: 'application/json',
          ...(wire.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
        body: wire.body,
        headersTimeout: limit,
        bodyTimeout: limit,
        signal: AbortSignal.timeout(limit),
      });
      return { status: response.statusCode, body: await response.body.text() };
    } catch (error) {
      const operation = `${wire.method} ${wire.url.split('?')[0]}`;
      throw new ControlError(
        operation,
        0,
        'unreachable',
        `no answer from ${base}: ${(error as Error).message}`,
      );
    }
  };
}

/**
 * Straight into a control plane's socket-free dispatcher (`createControlDispatcher`), as
 * fastify's `inject()` does: the same routing, checks, status codes and error bodies as over
 * HTTP, without a socket.
 */
export function injectTransport(
  dispatch: (request: RawControlRequest) => Promise<RawControlResponse>,
): ControlTransport {
  return async (wire) => {
    const answer = await dispatch({
      method: wire.method,
      url: wire.url,
      ...(wire.body === undefined ? {} : { body: Buffer.from(wire.body, 'utf8') }),
    });
    return { status: answer.status, body: answer.body ?? '' };
  };
}

/**
 * The typed client of a group of operations, derived from the declarations: one async method per
 * operation taking its declared input and resolving to its declared output. Any answer other than
 * 2xx throws `ControlError` with the server's status, code and message.
 */
export function controlClient<T extends ControlOperations>(
  operations: T,
  transport: ControlTransport,
): ControlClient<T> {
  const client: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const [name, operation] of Object.entries(operations)) {
    client[name] = async (input?: unknown) => {
      if (operation.produces === 'text/event-stream')
        throw new ControlError(
          name,
          0,
          'event_stream',
          `${operation.method} ${operation.path} answers Server-Sent Events: read it with an SSE reader`,
        );
      const wire = wireRequest(operation, input);
      const label = `${operation.method} ${wire.url.split('?')[0]}`;
      const answer = await transport(wire);
      return decode(label, answer.status, answer.body);
    };
  }
  return client as ControlClient<T>;
}

/** Puts an operation's input into path, query and body as the declaration says. */
function wireRequest(operation: ControlOperation, input: unknown): WireRequest {
  const wait = operation.waitMs as number | ((input: unknown) => number) | undefined;
  const waitMs = typeof wait === 'function' ? wait(input) : (wait ?? 0);
  const fields = objectFields(operation.input);
  if (!fields) {
    return { method: operation.method, url: operation.path, waitMs, ...jsonBody(input) };
  }
  const values = (input ?? {}) as Record<string, unknown>;
  const inPath = pathParameters(operation.path);
  const inQuery = operation.query ?? [];
  const url = operation.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    try {
      return encodeURIComponent(String(values[key] ?? ''));
    } catch {
      throw new ControlError(
        `${operation.method} ${operation.path}`,
        400,
        'invalid_request',
        `${key} holds a lone surrogate and cannot be sent in a URL; nothing was sent`,
      );
    }
  });
  const query = new URLSearchParams();
  for (const key of inQuery) if (values[key] !== undefined) query.set(key, String(values[key]));
  const search = query.size > 0 ? `?${query}` : '';
  let body: unknown;
  if (operation.bodyField !== undefined) body = values[operation.bodyField];
  else {
    const inBody = fields.filter((f) => !inPath.includes(f) && !inQuery.includes(f));
    // Every field but those of the path and the query goes into the body, unknown ones too, so
    // the server refuses them as it would refuse them from any other client.
    if (inBody.length > 0) {
      body =
        input !== null && typeof input === 'object' && !Array.isArray(input)
          ? Object.fromEntries(
              Object.entries(input).filter(
                ([f, v]) => v !== undefined && !inPath.includes(f) && !inQuery.includes(f),
              ),
            )
          : input;
    }
  }
  return { method: operation.method, url: `${url}${search}`, waitMs, ...jsonBody(body) };
}

function jsonBody(body: unknown): { body?: string } {
  return body === undefined ? {} : { body: JSON.stringify(body) };
}

function decode(operation: string, status: number, text: string): unknown {
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    isJson = false;
  }
  if (status < 200 || status > 299) {
    const error = parsed as { error?: unknown; message?: unknown } | undefined;
    if (isJson && typeof error?.error === 'string') {
      const message = typeof error.message === 'string' ? error.message : error.error;
      throw new ControlError(operation, status, error.error, message, parsed);
    }
    // Not the control plane's JSON error body (a proxy, another server): show the text itself.
    const line = text.replace(/\s+/g, ' ').trim().slice(0, MAX_ERROR_TEXT);
    throw new ControlError(
      operation,
      status,
      'unknown',
      line || 'no error text',
      isJson ? parsed : undefined,
    );
  }
  if (!isJson) throw new ControlError(operation, status, 'bad_response', 'the answer is not JSON');
  return parsed;
}
