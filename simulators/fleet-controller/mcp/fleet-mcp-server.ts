import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod/v4';
import { SEVERITIES } from '../../shared/wire/severity.ts';
import { MESSAGES } from '../api/error-body.ts';
import { commitAcknowledge, resolveItem } from '../model/acknowledge.ts';
import type { SiteView } from '../model/caller-view.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { COMMENT_MAX_CHARS, charCount } from '../model/text-limits.ts';

/** Who calls: ids only, so every call sees the account and token as they are now. */
export interface McpCaller {
  accountId: string;
  tokenId: string;
}

/** MCP-ACK-EXPLICIT-ONLY: the instruction to the assistant, in the acknowledge tool's description. */
export const ACKNOWLEDGE_DESCRIPTION =
  'Acknowledges one open module message (attention event) for your partner access, so it leaves the ' +
  'open list for every account of that access; other partners are not affected. Use this tool ONLY when ' +
  'the user explicitly asks you to acknowledge this particular message. Never acknowledge on your own ' +
  'initiative, not even to tidy up a list. Arguments: `attentionId` from `fleet_attention`, optional ' +
  '`comment` (at most 1000 characters) stored in the history. Needs the read and write level on both ' +
  'the account and the access token.';

export const ATTENTION_DESCRIPTION =
  'Lists every site of your partner access that needs attention, with its findings (`attention`) and its ' +
  'open module messages under `events` (attentionId, module, subject, description, severity, firstAt, ' +
  'lastAt, occurrences; times in ms since 1970 UTC). Read-only; needs the read level. Do not acknowledge ' +
  'anything unless the user explicitly asks for it.';

const eventShape = z.object({
  attentionId: z.number().int(),
  module: z.string(),
  moduleId: z.string().optional(),
  subject: z.string(),
  description: z.string().nullable(),
  severity: z.enum(SEVERITIES),
  firstAt: z.number().int(),
  lastAt: z.number().int(),
  occurrences: z.number().int(),
  suppressed: z.number().int(),
});

/*
 * The output schemas as zod objects built once, not raw shapes: the SDK makes an object schema
 * of a raw shape at every registration, and the controller registers its tools once per request
 * (stateless transport).
 */
const attentionOutput = z.object({
  sites: z.array(
    z.object({
      siteId: z.string(),
      displayName: z.string(),
      attention: z.array(z.string()),
      events: z.array(eventShape),
    }),
  ),
});

const acknowledgeOutput = z.object({
  outcome: z.literal('ok'),
  attentionId: z.number().int(),
  siteId: z.string(),
  alreadyAcknowledged: z.boolean(),
  acknowledgedAt: z.number().int(),
});

/**
 * The JSON Schema validator of every per-request server (it checks what clients send to the
 * server's elicitation requests, which these tools never make): one instance instead of an Ajv
 * built for each request (issue 31 §4).
 */
const sharedValidator = new AjvJsonSchemaValidator();

/**
 * The MCP face of the controller: one McpServer per request (stateless Streamable HTTP), bound to
 * the caller the Bearer token identified. Both tools read and write the same `FleetState` as REST
 * (MCP-SAME-DATA-AS-REST, MCP-ACK-SAME-AS-REST).
 *
 * - MCP-ATTENTION-SITES, MCP-ATTENTION-EVENTS, MCP-ATTENTION-READ-LEVEL: `fleet_attention` lists the
 *   visible sites whose `attention` is not empty; each open message under `events`.
 *   MCP-UNSPEC-SITE-FIELDS: a site carries `siteId`, `displayName`, `attention` and `events`;
 *   `description` is `null` for an item without one.
 * - MCP-ACK-RESULT, MCP-ACK-REPEAT, MCP-ACK-HISTORY: `fleet_attention_acknowledge` returns
 *   `outcome` `ok` and writes history with channel `mcp` and the account name.
 * - MCP-ACK-ATTENTIONID-REQUIRED, MCP-ACK-COMMENT-MAX: the input schema requires an integer
 *   `attentionId` and limits `comment` to 1000 code points; the SDK answers a violation with a
 *   tool error and nothing is acknowledged.
 * - MCP-ACK-ACCOUNT-LEVEL, MCP-ACK-TOKEN-LEVEL, MCP-UNSPEC-VIEWER: acknowledging needs `read-write`
 *   on the account and on the token, and a role other than Viewer.
 * - MCP-UNSPEC-FAILED-RESULT: a failed call is a tool result with `isError: true` whose text is
 *   an error object `{error, message}` (`not_found`, `forbidden`), without `structuredContent`.
 */
export function createFleetMcpServer(state: FleetState, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'fleet-controller-simulator', version: '1.0.0' },
    { jsonSchemaValidator: sharedValidator },
  );

  server.registerTool(
    'fleet_attention',
    {
      title: 'Fleet attention',
      description: ATTENTION_DESCRIPTION,
      outputSchema: attentionOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (): Promise<CallToolResult> => {
      const account = state.access.accounts.get(caller.accountId);
      if (!account || !state.access.tokens.has(caller.tokenId))
        return failure('forbidden', MESSAGES.levelForbidden);
      const sites = state.sitesNeedingAttention(account.partnerId).map(attentionEntry);
      return {
        // The same text as JSON.stringify({ sites }), from each entry's kept JSON.
        content: [{ type: 'text', text: `{"sites":[${sites.map((s) => s.json).join(',')}]}` }],
        structuredContent: { sites: sites.map((s) => s.entry) },
      };
    },
  );

  server.registerTool(
    'fleet_attention_acknowledge',
    {
      title: 'Acknowledge a fleet attention message',
      description: ACKNOWLEDGE_DESCRIPTION,
      inputSchema: {
        attentionId: z
          .number()
          .int()
          .positive()
          .describe('The `attentionId` of an open message from fleet_attention'),
        comment: z
          .string()
          .refine((s) => charCount(s) <= COMMENT_MAX_CHARS, {
            message: `at most ${COMMENT_MAX_CHARS} characters`,
          })
          // JSON Schema counts `maxLength` in code points, as the refine above does, so clients
          // see the limit that the server enforces (MCP-ACK-COMMENT-MAX).
          .meta({ maxLength: COMMENT_MAX_CHARS })
          .optional()
          .describe('Reason for the acknowledgement, at most 1000 characters; stored in the history'),
      },
      outputSchema: acknowledgeOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ attentionId, comment }): Promise<CallToolResult> => {
      const account = state.access.accounts.get(caller.accountId);
      const token = state.access.tokens.get(caller.tokenId);
      if (!account || !token) return failure('forbidden', MESSAGES.levelForbidden);
      const item = resolveItem(state, account, null, attentionId);
      if (!item) return failure('not_found', MESSAGES.notFound);
      if (account.role === 'Viewer') return failure('forbidden', MESSAGES.viewerForbidden);
      if (account.level !== 'read-write' || token.level !== 'read-write') {
        return failure('forbidden', MESSAGES.levelForbidden);
      }
      const result = commitAcknowledge(state, account, item, comment ?? null, 'mcp');
      return success({ outcome: 'ok', ...result });
    },
  );

  return server;
}

/** A site of `fleet_attention` as sent, and its JSON. */
interface AttentionEntry {
  entry: Record<string, unknown>;
  json: string;
}

/**
 * Each site view's `fleet_attention` entry, kept as long as the view is: the attention index
 * hands out the same view object until the site or the partner changes (issue 31 §4: a call
 * listing thousands of sites built and serialised each of them anew).
 */
const attentionEntries = new WeakMap<SiteView, AttentionEntry>();

function attentionEntry(view: SiteView): AttentionEntry {
  const kept = attentionEntries.get(view);
  if (kept) return kept;
  const entry = {
    siteId: view.id,
    displayName: view.displayName,
    attention: view.attention,
    events: view.attentionEvents.map(({ id, description, ...rest }) => ({
      attentionId: id,
      ...rest,
      description: description ?? null,
    })),
  };
  const made = { entry, json: JSON.stringify(entry) };
  attentionEntries.set(view, made);
  return made;
}

function success(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * A failed call: `isError` with the error object as text only. No `structuredContent`, because it
 * would have to match the tool's output schema, and clients validate it: the SDK client turns a
 * mismatching one into a protocol error instead of showing the refusal.
 */
function failure(error: 'forbidden' | 'not_found', message: string): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ error, message }) }], isError: true };
}
