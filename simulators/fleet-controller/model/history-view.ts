import type { Severity } from '../../shared/wire/severity.ts';
import type { FleetState } from './fleet-state.ts';
import type { Account, Channel, HistoryRecord } from './types.ts';

/** A history entry on the wire (schemas/fleet/history-entry.schema.json, FLEET-HISTORY-SCHEMA). */
export interface HistoryEntryView {
  kind: 'ATTENTION_ACK';
  actor: string;
  own: boolean;
  channel: Channel;
  createdAt: number;
  siteName: string;
  attention: { id: number; module: string; subject: string; severity: Severity; comment: string | null };
  tool: null;
  state: null;
  outcome: null;
  completedAt: null;
}

/**
 * The acknowledgement history of a site for the caller (FLEET-HISTORY-ENDPOINT,
 * FLEET-HISTORY-OWN-PARTNER-ONLY): only entries of the caller's partner access.
 * FLEET-UNSPEC-OWN: `own` is true for entries the calling account made itself.
 * FLEET-UNSPEC-ORDERING: newest first (by `createdAt`, then by the order written).
 * FLEET-UNSPEC-HISTORY-PAGING: no paging; query parameters are ignored.
 */
export function historyList(state: FleetState, caller: Account, siteId: string): HistoryEntryView[] {
  return state.attention.history
    .filter((h) => h.partnerId === caller.partnerId && h.siteId === siteId)
    .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq)
    .map((h) => historyView(h, caller));
}

/** One stored entry as the caller sees it; `createdAt` in integer ms since 1970 UTC (FLEET-TIMES-MS-UTC). */
function historyView(h: HistoryRecord, caller: Account): HistoryEntryView {
  return {
    kind: 'ATTENTION_ACK',
    actor: h.actor,
    own: h.accountId === caller.id,
    channel: h.channel,
    createdAt: h.createdAt,
    siteName: h.siteName,
    attention: { ...h.attention },
    tool: null,
    state: null,
    outcome: null,
    completedAt: null,
  };
}
