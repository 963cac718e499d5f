import type { Severity } from '../../shared/wire/severity.ts';

const RANK: Record<Severity, number> = { CRITICAL: 3, ERROR: 2, WARNING: 1, INFO: 0 };

/** What the order needs of an item. */
export interface Orderable {
  id: number;
  severity: Severity;
  lastAt: number;
}

/**
 * Comparator for `attentionEvents` (FLEET-SITE-ATTENTION-EVENTS-ORDER): most severe first
 * (`CRITICAL`, `ERROR`, `WARNING`, `INFO`), inside one severity most recent first.
 *
 * FLEET-UNSPEC-ORDERING: "most recent" means the larger `lastAt` (the last report, PBX clock);
 * equal `lastAt` puts the larger `id` (the item created later) first, so the order is total.
 */
export function compareAttention(a: Orderable, b: Orderable): number {
  return RANK[b.severity] - RANK[a.severity] || b.lastAt - a.lastAt || b.id - a.id;
}
