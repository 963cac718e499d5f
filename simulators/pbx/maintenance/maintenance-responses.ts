import { NOT_FOUND_TEXT } from '../web/web-server.ts';
/** An answer of interface A as the socket-free core gives it: the exact body text to send. */
export interface MaintenanceResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The messages of the error table (MAINT-ERR-SHAPE). */
export const ERROR_MESSAGES = {
  unauthorized: 'invalid or missing API token',
  unknownEndpoint: 'unknown endpoint',
  unknownCommand: 'unknown command',
  commandFailed: 'command failed',
} as const;

/** `Content-Type` of every answer of interface A (MAINT-JSON-RESPONSES). */
export const JSON_CONTENT_TYPE = 'application/json';

function json(status: number, value: unknown, extra: Record<string, string> = {}): MaintenanceResponse {
  return {
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(value),
  };
}

export function okResponse(): MaintenanceResponse {
  return json(200, { status: 'ok' });
}

export function commandListResponse(commands: readonly string[]): MaintenanceResponse {
  return json(200, { commands: [...commands] });
}

/**
 * 401 for a missing, malformed, unknown, revoked or expired token and any other scheme
 * (MAINT-AUTH-401-*). It carries `WWW-Authenticate: Bearer` as RFC 6750 asks
 * (MAINT-UNSPEC-BEARER-SYNTAX).
 */
export function unauthorizedResponse(): MaintenanceResponse {
  return json(
    401,
    { status: 'error', message: ERROR_MESSAGES.unauthorized },
    { 'www-authenticate': 'Bearer' },
  );
}

export function unknownEndpointResponse(): MaintenanceResponse {
  return json(404, { status: 'error', message: ERROR_MESSAGES.unknownEndpoint });
}

export function unknownCommandResponse(): MaintenanceResponse {
  return json(404, { status: 'error', message: ERROR_MESSAGES.unknownCommand });
}

export function commandFailedResponse(): MaintenanceResponse {
  return json(500, { status: 'error', message: ERROR_MESSAGES.commandFailed });
}

/** 413 has its own shape (MAINT-ERR-413-BODY-TOO-LARGE). */
export function bodyTooLargeResponse(): MaintenanceResponse {
  return json(413, { ok: false, error: 'body-too-large' });
}

/**
 * What a module without interface A serves under the base path: the web server's own answer to
 * an unknown path (simulators/pbx/web/web-server.ts), not the API's JSON (MAINT-MODULE-VERSION-GATE).
 */
export function interfaceAbsentResponse(): MaintenanceResponse {
  return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: NOT_FOUND_TEXT };
}
