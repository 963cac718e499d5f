import { describeValue, requireObject } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { ControlResponse, ControlRoute } from '../../shared/http/control-route.ts';
import type { MaintenanceControl, TokenCreateRequest } from './maintenance-control.ts';
import { type TokenErrorCode, TokenStoreError } from './token-store.ts';

const STATUS: Record<TokenErrorCode, { status: number; error: string }> = {
  forbidden: { status: 403, error: 'forbidden' },
  'invalid-input': { status: 400, error: 'invalid_request' },
  'not-found': { status: 404, error: 'not_found' },
};

/** Runs a token operation; a `TokenStoreError` becomes its status with `{ error, message }`. */
async function tokenOperation(operation: () => Promise<ControlResponse>): Promise<ControlResponse> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof TokenStoreError)) throw error;
    const { status, error: code } = STATUS[error.code];
    return { status, body: { error: code, message: error.message } };
  }
}

function actorParameter(query: URLSearchParams): string {
  const actor = query.get('actor');
  if (actor === null || actor === '')
    throw new ControlInputError('the query parameter actor (a PBX user login) is required');
  return actor;
}

function sinceParameter(query: URLSearchParams): number {
  const since = query.get('since');
  if (since === null) return 0;
  if (!/^\d{1,15}$/.test(since))
    throw new ControlInputError(`since must be a non-negative integer, got ${describeValue(since)}`);
  return Number(since);
}

/**
 * The control-plane routes of interface A, for `createControlServer(…, { extraRoutes })`
 * (docs/maintenance-api.md, "Control plane"):
 * - `POST /maintenance/tokens` `{label, expiresAt?, actor}` → 201 with the secret, once;
 * - `GET /maintenance/tokens?actor=` → the token list (no secrets, no hashes);
 * - `DELETE /maintenance/tokens/{id}?actor=` → 204, revoked at once;
 * - `GET /maintenance/events?since=` → completion events;
 * - `POST /maintenance/queue/wait-idle` → `{pending}` once the queue is empty (≤ 10 s);
 * - `GET /maintenance/tokens/stored` → the records at rest: metadata and SHA-256 hashes only.
 * A non-admin or unknown actor gets 403 (MAINT-TOKEN-ADMIN-RIGHT), a missing label 400
 * (MAINT-TOKEN-LABEL-REQUIRED), an unknown token id 404.
 */
export function maintenanceControlRoutes(control: MaintenanceControl): ControlRoute[] {
  return [
    {
      method: 'POST',
      path: '/maintenance/tokens',
      handle: async ({ body }) => {
        const fields = requireObject(body ?? {}, 'the request body', ['label', 'expiresAt', 'actor']);
        const actor = fields['actor'];
        if (typeof actor !== 'string' || actor === '') {
          throw new ControlInputError('actor (a PBX user login) is required');
        }
        const request = { label: fields['label'], expiresAt: fields['expiresAt'] } as TokenCreateRequest;
        return tokenOperation(async () => ({ status: 201, body: await control.createToken(request, actor) }));
      },
    },
    {
      method: 'GET',
      path: '/maintenance/tokens',
      handle: async ({ query }) => {
        const actor = actorParameter(query);
        return tokenOperation(async () => ({ status: 200, body: await control.listTokens(actor) }));
      },
    },
    {
      method: 'DELETE',
      path: '/maintenance/tokens/{id}',
      handle: async ({ params, query }) => {
        const actor = actorParameter(query);
        return tokenOperation(async () => {
          await control.deleteToken(params['id'] ?? '', actor);
          return { status: 204 };
        });
      },
    },
    {
      method: 'GET',
      path: '/maintenance/tokens/stored',
      handle: async () => ({ status: 200, body: await control.storedTokenRecords() }),
    },
    {
      method: 'GET',
      path: '/maintenance/events',
      handle: async ({ query }) => ({
        status: 200,
        body: await control.completionEvents(sinceParameter(query)),
      }),
    },
    {
      method: 'POST',
      path: '/maintenance/queue/wait-idle',
      handle: async () => ({ status: 200, body: await control.waitIdle() }),
    },
  ];
}
