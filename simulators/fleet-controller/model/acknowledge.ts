import { itemVisible } from './caller-view.ts';
import type { FleetState } from './fleet-state.ts';
import type { Account, AttentionItem, Channel } from './types.ts';

/**
 * The acknowledge result (schemas/fleet/acknowledge-result.schema.json, FLEET-ACK-RESULT-SCHEMA).
 * `acknowledgedAt` is integer ms since 1970 UTC, as every time of interface B (FLEET-TIMES-MS-UTC).
 */
export interface AcknowledgeResult {
  attentionId: number;
  siteId: string;
  alreadyAcknowledged: boolean;
  acknowledgedAt: number;
}

/**
 * Finds an item the caller's partner access may address, or `undefined` for every case the spec
 * answers 404 (FLEET-ERR-404-ITEM-UNKNOWN, FLEET-ERR-404-ITEM-OTHER-SITE, FLEET-ERR-404-ITEM-INVISIBLE,
 * FLEET-ERR-404-SITE-FOREIGN, FLEET-ERR-404-SITE-UNKNOWN). `siteId` `null` (MCP) accepts any visible site.
 */
export function resolveItem(
  state: FleetState,
  account: Account,
  siteId: string | null,
  attentionId: number,
): AttentionItem | undefined {
  const item = state.attention.book.get(attentionId);
  if (!item || (siteId !== null && item.siteId !== siteId)) return undefined;
  const right = state.access.rightOf(account.partnerId, item.siteId);
  if (!right || !state.access.sites.has(item.siteId) || !itemVisible(right, item)) return undefined;
  return item;
}

/**
 * Acknowledges `item` for the caller's partner access and writes the history entry of a first
 * acknowledgement (FLEET-ACK-FIRST, FLEET-ACK-PARTNER-WIDE, FLEET-ACK-HISTORY-ONCE, FLEET-ACK-REPEAT,
 * FLEET-ACK-AFTER-REOPEN, FLEET-HISTORY-ACTOR, MCP-ACK-HISTORY). The entry copies the item's `id`,
 * `module`, `subject` and `severity` (FLEET-HISTORY-ATTENTION), the comment or `null`
 * (FLEET-HISTORY-COMMENT) and the `channel` the caller names: `console` from the REST API
 * (FLEET-HISTORY-CHANNEL-CONSOLE), `mcp` from the MCP tool. The result names the item's own
 * `attentionId` and `siteId`, which `resolveItem` has matched to the request path
 * (FLEET-ACK-RESULT-IDS). Runs synchronously from check to
 * write, so concurrent requests for one item produce exactly one history entry; with a data
 * directory both are written in one transaction before the answer leaves.
 * The caller has checked visibility, role, levels and the comment.
 */
export function commitAcknowledge(
  state: FleetState,
  account: Account,
  item: AttentionItem,
  comment: string | null,
  channel: Channel,
): AcknowledgeResult {
  // One transaction: the acknowledgement is never stored without its history entry.
  return state.atomically(() => {
    const outcome = state.attention.acknowledgeItem(item, account.partnerId);
    if (!outcome.alreadyAcknowledged) {
      const site = state.access.requireSite(item.siteId);
      state.attention.appendHistory({
        partnerId: account.partnerId,
        siteId: item.siteId,
        accountId: account.id,
        actor: account.name,
        channel,
        createdAt: outcome.at,
        siteName: site.displayName,
        // FLEET-HISTORY-ATTENTION, FLEET-HISTORY-COMMENT
        attention: {
          id: item.id,
          module: item.module,
          subject: item.subject,
          severity: item.severity,
          comment,
        },
      });
    }
    // FLEET-ACK-RESULT-IDS
    return {
      attentionId: item.id,
      siteId: item.siteId,
      alreadyAcknowledged: outcome.alreadyAcknowledged,
      acknowledgedAt: outcome.at,
    };
  });
}
