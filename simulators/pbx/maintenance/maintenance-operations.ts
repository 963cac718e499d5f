import { z } from 'zod';
import { answer, checkedByEffect, fields, integer, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { CompletionEvent } from './completion-event.ts';
import type { CreatedToken, StoredTokenView, TokenInfo } from './token-store.ts';

/** Longest real-time wait of `waitIdle`, so a stuck queue never stalls a run. */
export const MAX_IDLE_WAIT_MS = 10_000;

/** The login of the PBX user a token operation is done as (MAINT-TOKEN-ADMIN-RIGHT). */
const actor = text(200, 1);

/**
 * What the module UI offers for interface A, as the PBX control plane exposes it
 * (schemas/maintenance-api.openapi.yaml, tag `control-plane`; docs/maintenance-api.md): token
 * management standing in for the security card's API tokens button (MAINT-UNSPEC-TOKEN-UI) and
 * the completion events. Without the administration right every token operation is refused with
 * 403 `forbidden`; a missing label is 400 (MAINT-TOKEN-LABEL-REQUIRED), an unknown token id 404.
 * `maintenanceEffects` (maintenance-effects.ts) gives what each does.
 */
export const MAINTENANCE_CONTROL_OPERATIONS = defineOperations({
  createToken: {
    method: 'POST',
    path: '/maintenance/tokens',
    summary: 'Creates an API token; the secret is shown once',
    actsOn: 'the token store',
    // Label and expiry are the token store's to judge (MAINT-TOKEN-LABEL-REQUIRED).
    input: fields({
      label: checkedByEffect<string>(),
      expiresAt: checkedByEffect<number | null>().optional(),
      actor,
    }),
    status: 201,
    output: answer<CreatedToken>(),
  },
  listTokens: {
    method: 'GET',
    path: '/maintenance/tokens',
    summary: 'The token list: no secrets, no hashes',
    actsOn: 'the token store (reads)',
    input: fields({ actor }),
    query: ['actor'],
    output: answer<TokenInfo[]>(),
  },
  deleteToken: {
    method: 'DELETE',
    path: '/maintenance/tokens/{id}',
    summary: 'Revokes a token at once',
    actsOn: 'the token store',
    input: fields({ id: text(200, 1), actor }),
    query: ['actor'],
  },
  storedTokenRecords: {
    method: 'GET',
    path: '/maintenance/tokens/stored',
    summary: 'The token records at rest: metadata and SHA-256 hashes only (MAINT-TOKEN-HASH-ONLY)',
    actsOn: 'the token store (reads)',
    output: answer<StoredTokenView[]>(),
  },
  completionEvents: {
    method: 'GET',
    path: '/maintenance/events',
    summary: 'Completion events with seq above `since`, oldest first',
    actsOn: 'the command executor (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional() }),
    query: ['since'],
    output: answer<CompletionEvent[]>(),
  },
  waitIdle: {
    method: 'POST',
    path: '/maintenance/queue/wait-idle',
    summary: 'Waits (at most 10 s, real time) until every accepted command has run',
    actsOn: 'the command executor (waits)',
    output: z.object({ pending: z.number() }),
    waitMs: MAX_IDLE_WAIT_MS,
  },
});
