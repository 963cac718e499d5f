import { z } from 'zod';
import { fields, integer, schemaFile, text } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { CompletionEvent } from './completion-event.ts';
import { type CreatedToken, MAX_LABEL_LENGTH, type TokenInfo } from './token-store.ts';

/** Longest real-time wait of `waitIdle`, so a stuck queue never stalls a run. */
export const MAX_IDLE_WAIT_MS = 10_000;

/** The login of the PBX user a token operation is done as (MAINT-TOKEN-ADMIN-RIGHT). */
const actor = text(200, 1);

/**
 * What the module UI offers for interface A, as the PBX control plane exposes it
 * (schemas/pbx-control.openapi.yaml, tag `maintenance`; docs/maintenance-api.md): token
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
    tag: 'maintenance',
    description: 'The secret is in this answer and nowhere else, ever. Only its SHA-256 hash is kept.',
    answers: 'Created.',
    refusals: {
      403: 'Control-plane error: `{error, message}` with `error` one of `invalid_request`, `forbidden`, `not_found`.',
    },
    actsOn: 'the token store',
    // Label and expiry are the token store's to judge (MAINT-TOKEN-LABEL-REQUIRED).
    input: fields({
      label: text(MAX_LABEL_LENGTH),
      expiresAt: z
        .int({ error: 'must be an integer (epoch ms) or null' })
        .nullable()
        .optional()
        .describe('Epoch ms in the future; absent or null: no expiry.'),
      actor,
    }),
    status: 201,
    output: schemaFile<CreatedToken>('maintenance/token-created.schema.json'),
  },
  listTokens: {
    method: 'GET',
    path: '/maintenance/tokens',
    summary: 'The token list: no secrets, no hashes',
    description:
      'The tokens in creation order, expired ones included, as the module UI lists them: id, label, creation, expiry and last use; never a secret or a hash. Done as `actor`, who needs the administration right (MAINT-TOKEN-ADMIN-RIGHT).',
    tag: 'maintenance',
    answers: 'The tokens in creation order, expired ones included.',
    refusals: {
      403: 'Control-plane error: `{error, message}` with `error` one of `invalid_request`, `forbidden`, `not_found`.',
    },
    actsOn: 'the token store (reads)',
    input: fields({ actor }),
    query: ['actor'],
    output: z.array(schemaFile<TokenInfo>('maintenance/token-info.schema.json')),
  },
  deleteToken: {
    method: 'DELETE',
    path: '/maintenance/tokens/{id}',
    summary: 'Revokes a token at once',
    description:
      'Revokes the token at once, valid or expired (MAINT-TOKEN-REVOKE): the next call with it gets 401. Done as `actor`, who needs the administration right.',
    tag: 'maintenance',
    answers: 'Revoked; the next call with it gets 401.',
    refusals: {
      403: 'Control-plane error: `{error, message}` with `error` one of `invalid_request`, `forbidden`, `not_found`.',
      404: 'Control-plane error: `{error, message}` with `error` one of `invalid_request`, `forbidden`, `not_found`.',
    },
    actsOn: 'the token store',
    input: fields({ id: text(200, 1), actor }),
    query: ['actor'],
  },
  storedTokenRecords: {
    method: 'GET',
    path: '/maintenance/tokens/stored',
    summary: 'The token records at rest: metadata and SHA-256 hashes only (MAINT-TOKEN-HASH-ONLY)',
    tag: 'maintenance',
    description: 'Metadata and the SHA-256 hash of each secret; never a secret. Not part of the module UI.',
    answers: 'One record per token.',
    actsOn: 'the token store (reads)',
    output: z.array(
      z.strictObject({
        id: z.string(),
        label: z.string(),
        createdAt: z.int(),
        expiresAt: z.int().nullable(),
        lastUsedAt: z.int().nullable(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    ),
  },
  completionEvents: {
    method: 'GET',
    path: '/maintenance/events',
    summary: 'Completion events with seq above `since`, oldest first',
    description:
      'The completion events of the command executor (docs/maintenance-api.md, "Completion events") with a `seq` above `since`, oldest first; pass the last `seq` seen to read what is new.',
    tag: 'maintenance',
    answers: 'Events, oldest first.',
    actsOn: 'the command executor (reads)',
    input: fields({ since: integer(0, Number.MAX_SAFE_INTEGER).optional() }),
    query: ['since'],
    output: z.array(schemaFile<CompletionEvent>('maintenance/completion-event.schema.json')),
  },
  waitIdle: {
    method: 'POST',
    path: '/maintenance/queue/wait-idle',
    summary: 'Waits (at most 10 s, real time) until every accepted command has run',
    description:
      'Waits until every command the maintenance API has accepted has run, at most 10 s of real time, so a scenario can read their effects and completion events. Answers how many still wait (0 unless the wait timed out).',
    tag: 'maintenance',
    answers: 'How many commands still wait (0 unless the wait timed out).',
    actsOn: 'the command executor (waits)',
    output: z.strictObject({ pending: z.int().min(0) }),
    waitMs: MAX_IDLE_WAIT_MS,
  },
});
