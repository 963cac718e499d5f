import type { Severity } from '../../shared/wire/severity.ts';
import { compareAttention } from './attention-order.ts';
import { evaluateFindings, type FindingKey } from './findings.ts';
import type { FleetReads } from './fleet-reads.ts';
import type { AttentionItem, Site, SiteRight } from './types.ts';

/** An attention item on the wire (schemas/fleet/attention-item.schema.json, FLEET-ITEM-SCHEMA). */
export interface AttentionItemView {
  id: number;
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: Severity;
  firstAt: number;
  lastAt: number;
  occurrences: number;
  suppressed: number;
}

/** A site list entry on the wire (schemas/fleet/site-list.schema.json, FLEET-SITE-SCHEMA). */
export interface SiteView {
  id: string;
  displayName: string;
  attention: (FindingKey | 'events')[];
  attentionEvents: AttentionItemView[];
}

/**
 * Whether `item` is visible to the partner holding `right` (FLEET-UNSPEC-INVISIBLE-ITEM): a right
 * limited to a module list shows only items whose `module` or `moduleId` is on it.
 */
export function itemVisible(right: SiteRight, item: AttentionItem): boolean {
  if (!right.modules) return true;
  return (
    right.modules.includes(item.module) ||
    (item.moduleId !== undefined && right.modules.includes(item.moduleId))
  );
}

/**
 * The sites a partner access holds a right on, own or managed (FLEET-AUTH-VISIBLE-SITES). A site
 * without a right of the partner is never listed (FLEET-AUTH-FOREIGN-SITE-HIDDEN).
 */
export function visibleSites(state: FleetReads, partnerId: string): { site: Site; right: SiteRight }[] {
  const out: { site: Site; right: SiteRight }[] = [];
  for (const right of state.access.rights.get(partnerId)?.values() ?? []) {
    const site = state.access.sites.get(right.siteId);
    if (site) out.push({ site, right });
  }
  return out.sort(compareSites);
}

/** FLEET-UNSPEC-ORDERING: the site list is ordered by display name (German collation), then id. */
const collator = new Intl.Collator('de');
export function compareSites(
  a: { site: Pick<Site, 'id' | 'displayName'> },
  b: { site: Pick<Site, 'id' | 'displayName'> },
): number {
  return (
    collator.compare(a.site.displayName, b.site.displayName) ||
    (a.site.id < b.site.id ? -1 : a.site.id > b.site.id ? 1 : 0)
  );
}

/**
 * The items of a site open for a partner access, in `attentionEvents` order
 * (FLEET-SITE-ATTENTION-EVENTS-OPEN, FLEET-SITE-ATTENTION-EVENTS-ORDER, FLEET-ACK-LEAVES-OPEN-LIST).
 */
export function openItems(state: FleetReads, right: SiteRight): AttentionItem[] {
  return state.attention.book
    .itemsOf(right.siteId)
    .filter((item) => itemVisible(right, item) && !item.acks.has(right.partnerId))
    .sort(compareAttention);
}

/**
 * An item on the wire: `module` is the module's display name (FLEET-ITEM-MODULE); `moduleId` and
 * `description` appear only when the item has them (FLEET-ITEM-MODULEID,
 * FLEET-ITEM-DESCRIPTION-OPTIONAL); `firstAt` and `lastAt` are integer ms since 1970 UTC
 * (FLEET-TIMES-MS-UTC).
 */
export function itemView(item: AttentionItem): AttentionItemView {
  const view: AttentionItemView = {
    id: item.id,
    module: item.module,
    subject: item.subject,
    severity: item.severity,
    firstAt: item.firstAt,
    lastAt: item.lastAt,
    occurrences: item.occurrences,
    suppressed: item.suppressed,
  };
  if (item.moduleId !== undefined) view.moduleId = item.moduleId;
  if (item.description !== undefined) view.description = item.description;
  return view;
}

/**
 * One site as a partner access sees it: findings evaluated now plus `events` while an item is open
 * for it (FLEET-SITE-EVENTS-KEY). `attentionEvents` is always present, empty when nothing is open.
 */
export function siteView(state: FleetReads, site: Site, right: SiteRight): SiteView {
  const attention: SiteView['attention'] = evaluateFindings({
    reachable: state.ingest.reachable(site.id),
    inventory: state.ingest.inventories.get(site.id) ?? null,
  });
  const open = openItems(state, right);
  if (open.length > 0) attention.push('events');
  return { id: site.id, displayName: site.displayName, attention, attentionEvents: open.map(itemView) };
}

/** The site list of a partner access (FLEET-SITES-LIST). */
export function siteList(state: FleetReads, partnerId: string): SiteView[] {
  return visibleSites(state, partnerId).map(({ site, right }) => siteView(state, site, right));
}
