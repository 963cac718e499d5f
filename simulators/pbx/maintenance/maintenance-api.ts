import type { PbxStore } from '../state/store.ts';
import { bearerToken } from './bearer-token.ts';
import { type CommandExecutor, CommandHandoverError } from './command-executor.ts';
import { COMMAND_NAMES, type CommandName } from './command-names.ts';
import { commandParameters, parseCommandBody } from './command-parameters.ts';
import {
  bodyTooLargeResponse,
  commandFailedResponse,
  commandListResponse,
  interfaceAbsentResponse,
  type MaintenanceResponse,
  okResponse,
  unauthorizedResponse,
  unknownCommandResponse,
  unknownEndpointResponse,
} from './maintenance-responses.ts';
import { hasMaintenanceApi } from './module-version-gate.ts';
import type { TokenStore } from './token-store.ts';

/** Base path of interface A; `7ce0d8df` is the fixed module code (MAINT-BASE-PATH). */
export const MAINTENANCE_BASE_PATH = '/fp/7ce0d8df/api/v1';

/** The command list, read as `{base}/system-functions` (MAINT-UNSPEC-PATH-V1). */
export const SYSTEM_FUNCTIONS_PATH = `${MAINTENANCE_BASE_PATH}/system-functions`;

const BASE_PREFIX = `${MAINTENANCE_BASE_PATH}/`;
const COMMAND_PREFIX = `${SYSTEM_FUNCTIONS_PATH}/`;

/** Largest POST body taken: 1 MiB; one byte more gets 413 (MAINT-POST-BODY-UP-TO-1MIB). */
export const MAX_BODY_BYTES = 1_048_576;

export interface MaintenanceRequestHead {
  method: string;
  /** The request target: path and optional query string, e.g. `/fp/7ce0d8df/api/v1/system-functions?x=1`. */
  target: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface MaintenanceRequest extends MaintenanceRequestHead {
  /** The whole body; absent means empty. */
  body?: Uint8Array;
}

/**
 * What the head of a request decides: either the answer, or that the body is needed (a POST of a
 * known command with a valid token). `complete` must be given a body of at most `MAX_BODY_BYTES`
 * bytes; the listener answers 413 itself when more arrives.
 */
export type HeadDecision =
  | { kind: 'respond'; response: MaintenanceResponse }
  | { kind: 'read-body'; command: CommandName; complete(body: Uint8Array): MaintenanceResponse };

export interface MaintenanceApi {
  /** Decides from method, target and headers alone (the listener uses it before reading a body). */
  head(request: MaintenanceRequestHead): HeadDecision;
  /** The whole exchange, socket-free: what unit tests drive. */
  handle(request: MaintenanceRequest): MaintenanceResponse;
}

const respond = (response: MaintenanceResponse): HeadDecision => ({ kind: 'respond', response });

/**
 * The socket-free core of interface A. Checks run in this order, the first that applies answers
 * (MAINT-UNSPEC-CHECK-ORDER):
 * 1. module version 26.7.28 or lower: the web server's plain 404, as for any unknown path
 *    (MAINT-MODULE-VERSION-GATE);
 * 2. token (401 `invalid or missing API token`: MAINT-AUTH-401-MISSING, MAINT-AUTH-401-INVALID,
 *    MAINT-AUTH-401-REVOKED, MAINT-AUTH-401-EXPIRED, MAINT-AUTH-401-OTHER-SCHEME), on every path
 *    under the base, so a caller without a valid token learns nothing about paths or commands. A
 *    401 is decided from the head, before any body is read or anything reaches the executor, so
 *    a refused POST never runs (MAINT-AUTH-401-NOT-EXECUTED). The Bearer token is the only access
 *    control: no PBX session, cookie or user credentials are looked at, and nothing redirects to
 *    a login (MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH, MAINT-OUTSIDE-PBX-LOGIN). On purpose the request
 *    head carries no client address and nothing here counts failed checks or calls: no address
 *    filter, no lockout, no rate limit (MAINT-AUTH-NO-IP-RESTRICTION, MAINT-AUTH-NO-LOCKOUT,
 *    MAINT-NO-RATE-LIMIT);
 * 3. path and method (404 `unknown endpoint`: MAINT-ERR-404-UNKNOWN-PATH,
 *    MAINT-ERR-404-WRONG-METHOD), then command name (404 `unknown command`:
 *    MAINT-ERR-404-UNKNOWN-COMMAND); `GET` of the command list answers it (MAINT-GET-COMMANDS);
 * 4. body size (413) — only a request that would otherwise be accepted reads its body;
 * 5. hand-over (500 `command failed`), then 200 `{"status":"ok"}` at once (MAINT-POST-ACCEPTED).
 * Paths and command names match exactly and case-sensitively, without percent-decoding; the query
 * string is ignored; a trailing slash or a doubled slash makes another, unknown path
 * (MAINT-UNSPEC-NAME-MATCHING). The request's `Content-Type` is not checked
 * (MAINT-UNSPEC-REQUEST-CONTENT-TYPE). A GET body is ignored.
 */
export function createMaintenanceApi(
  store: PbxStore,
  tokens: TokenStore,
  executor: CommandExecutor,
): MaintenanceApi {
  /**
   * Hands a known command over and answers 200 `ok`. Neither the licence nor the parameters are
   * looked at here: the executor checks them later, in the background, and discards silently. So
   * a missing licence (MAINT-LICENCE-NOT-NEEDED-TO-ACCEPT), a syntactically invalid JSON body
   * (MAINT-POST-INVALID-JSON-ACCEPTED) and unusable parameters (MAINT-ERR-200-CALLDATA-UNCONFIRMED,
   * MAINT-ERR-200-PROVISION-NO-TYPE, MAINT-ERR-200-INVALID-MODE, MAINT-ERR-200-UNAVAILABLE-VERSION)
   * all get the same 200 `ok`, never an error.
   */
  function accept(command: CommandName, body: Uint8Array): MaintenanceResponse {
    if (body.length > MAX_BODY_BYTES) return bodyTooLargeResponse();
    const parsed = parseCommandBody(body);
    try {
      executor.submit(command, commandParameters(command, parsed.fields), parsed.kind);
    } catch (error) {
      if (error instanceof CommandHandoverError) return commandFailedResponse();
      throw error;
    }
    return okResponse();
  }

  // The decisions are the same for every request that reaches them: built once, not per request.
  const decisions = {
    absent: respond(interfaceAbsentResponse()),
    unauthorized: respond(unauthorizedResponse()),
    list: respond(commandListResponse(COMMAND_NAMES)),
    unknownEndpoint: respond(unknownEndpointResponse()),
    unknownCommand: respond(unknownCommandResponse()),
  };
  // Every name the GET lists gets a read-body decision, so each listed command is accepted by a
  // POST (MAINT-POST-LISTED-COMMAND); any other name is `unknown command`.
  const readBody = new Map<string, HeadDecision>();
  for (const command of COMMAND_NAMES) {
    readBody.set(command, { kind: 'read-body', command, complete: (body) => accept(command, body) });
  }

  function head(request: MaintenanceRequestHead): HeadDecision {
    const queryAt = request.target.indexOf('?');
    const path = queryAt === -1 ? request.target : request.target.slice(0, queryAt);
    if (path !== MAINTENANCE_BASE_PATH && !path.startsWith(BASE_PREFIX)) return decisions.absent;
    if (!hasMaintenanceApi(store.read().maintenance.moduleVersion)) return decisions.absent;
    // The only access check: a valid Bearer token. No session, no client address, no failure
    // counter (MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH, MAINT-AUTH-NO-IP-RESTRICTION, MAINT-AUTH-NO-LOCKOUT,
    // MAINT-NO-RATE-LIMIT).
    const token = bearerToken(request.headers['authorization']);
    if (token === null || tokens.verify(token) === null) return decisions.unauthorized;
    if (path === SYSTEM_FUNCTIONS_PATH) {
      return request.method === 'GET' ? decisions.list : decisions.unknownEndpoint;
    }
    const name = path.startsWith(COMMAND_PREFIX) ? path.slice(COMMAND_PREFIX.length) : '';
    if (name === '' || name.includes('/') || request.method !== 'POST') return decisions.unknownEndpoint;
    return readBody.get(name) ?? decisions.unknownCommand;
  }

  return {
    head,
    handle(request) {
      const decision = head(request);
      return decision.kind === 'respond'
        ? decision.response
        : decision.complete(request.body ?? new Uint8Array(0));
    },
  };
}
