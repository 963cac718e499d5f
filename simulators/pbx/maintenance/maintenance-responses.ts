import { NOT_FOUND_TEXT } from '../../shared/http/web-route.ts';

/**
 * An answer of interface A as the socket-free core gives it: the exact body text to send. The
 * fixed answers are shared, frozen objects (built once, not per request): treat them as read-only.
 */
export interface MaintenanceResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
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
  return frozen({
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(value),
  });
}

function frozen(response: MaintenanceResponse): MaintenanceResponse {
  Object.freeze(response.headers);
  return Object.freeze(response);
}

const OK = json(200, { status: 'ok' });
const UNAUTHORIZED = json(
  401,
  { status: 'error', message: ERROR_MESSAGES.unauthorized },
  { 'www-authenticate': 'Bearer' },
);
const UNKNOWN_ENDPOINT = json(404, { status: 'error', message: ERROR_MESSAGES.unknownEndpoint });
const UNKNOWN_COMMAND = json(404, { status: 'error', message: ERROR_MESSAGES.unknownCommand });
const COMMAND_FAILED = json(500, { status: 'error', message: ERROR_MESSAGES.commandFailed });
const BODY_TOO_LARGE = json(413, { ok: false, error: 'body-too-large' });
const INTERFACE_ABSENT = frozen({
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: NOT_FOUND_TEXT,
});
const listed = new WeakMap<readonly string[], MaintenanceResponse>();

/** 200 `{"status":"ok"}`: a POST accepted (MAINT-POST-ACCEPTED). */
export function okResponse(): MaintenanceResponse {
  return OK;
}

/**
 * 200 `{"commands": [...]}`, the command names as strings (MAINT-GET-COMMANDS); built once per
 * list (the API always passes `COMMAND_NAMES`).
 */
export function commandListResponse(commands: readonly string[]): MaintenanceResponse {
  let response = listed.get(commands);
  if (!response) {
    response = json(200, { commands: [...commands] });
    listed.set(commands, response);
  }
  return response;
}

/**
 * 401 `invalid or missing API token` for a missing, malformed, unknown, revoked or expired token
 * and any other scheme (MAINT-AUTH-401-MISSING, MAINT-AUTH-401-INVALID, MAINT-AUTH-401-REVOKED,
 * MAINT-AUTH-401-EXPIRED, MAINT-AUTH-401-OTHER-SCHEME). It carries `WWW-Authenticate: Bearer` as
 * RFC 6750 asks (MAINT-UNSPEC-BEARER-SYNTAX).
 */
export function unauthorizedResponse(): MaintenanceResponse {
  return UNAUTHORIZED;
}

/**
 * 404 `unknown endpoint`: an unknown path under the base or a known path with the wrong method
 * (MAINT-ERR-404-UNKNOWN-PATH, MAINT-ERR-404-WRONG-METHOD).
 */
export function unknownEndpointResponse(): MaintenanceResponse {
  return UNKNOWN_ENDPOINT;
}

/** 404 `unknown command`: a POST of a name not in the list (MAINT-ERR-404-UNKNOWN-COMMAND). */
export function unknownCommandResponse(): MaintenanceResponse {
  return UNKNOWN_COMMAND;
}

/** 500 `command failed`: the hand-over failed (MAINT-ERR-500-COMMAND-FAILED). */
export function commandFailedResponse(): MaintenanceResponse {
  return COMMAND_FAILED;
}

/** 413 has its own shape (MAINT-ERR-413-BODY-TOO-LARGE). */
export function bodyTooLargeResponse(): MaintenanceResponse {
  return BODY_TOO_LARGE;
}

/**
 * What a module without interface A serves under the base path: the web server's own answer to
 * an unknown path (simulators/pbx/web/web-server.ts), not the API's JSON (MAINT-MODULE-VERSION-GATE).
 */
export function interfaceAbsentResponse(): MaintenanceResponse {
  return INTERFACE_ABSENT;
}
