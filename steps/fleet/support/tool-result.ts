import type { ItemView, SiteView } from './fleet-context.ts';

/** The members every open message of `fleet_attention` carries (MCP-ATTENTION-EVENTS). */
export const MCP_EVENT_MEMBERS = [
  'attentionId',
  'module',
  'subject',
  'description',
  'severity',
  'firstAt',
  'lastAt',
  'occurrences',
] as const;

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The site entries of a `fleet_attention` result: the first list (depth first) whose elements are
 * objects with an `events` list. MCP-UNSPEC-SITE-FIELDS: only `events` is named, so a site entry is
 * recognised by it; a result without any such list has no sites.
 */
export function mcpSiteEntries(value: unknown): Entry[] {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((e) => isEntry(e) && Array.isArray(e['events'])))
      return value as Entry[];
    for (const element of value) {
      const found = mcpSiteEntries(element);
      if (found.length > 0) return found;
    }
    return [];
  }
  if (!isEntry(value)) return [];
  for (const member of Object.values(value)) {
    const found = mcpSiteEntries(member);
    if (found.length > 0) return found;
  }
  return [];
}

/** The entry that stands for `site`: one of its members holds the site's id. */
export function entryOf(entries: readonly Entry[], site: SiteView): Entry | undefined {
  return entries.find((e) => Object.values(e).some((v) => v === site.id));
}

export function entryEvents(entry: Entry): Entry[] {
  const events = entry['events'];
  return Array.isArray(events) ? events.filter(isEntry) : [];
}

/**
 * Why the `fleet_attention` entries do not show the same data as the REST site list, or `null`
 * (MCP-SAME-DATA-AS-REST, MCP-ATTENTION-SITES): exactly the sites whose `attention` is not empty,
 * each with exactly its open messages, field for field. Not judged: the order (not stated for MCP)
 * and `description` of an item without one (MCP-UNSPEC-SITE-FIELDS).
 */
export function sameDataProblem(entries: readonly Entry[], rest: readonly SiteView[]): string | null {
  const withFindings = rest.filter((s) => s.attention.length > 0);
  for (const entry of entries) {
    if (!withFindings.some((s) => entryOf([entry], s))) {
      return `fleet_attention lists a site that the REST list does not show with findings: ${JSON.stringify(entry).slice(0, 300)}`;
    }
  }
  for (const site of withFindings) {
    const entry = entryOf(entries, site);
    if (!entry)
      return `fleet_attention does not list ${site.id}, which has the findings ${site.attention.join(', ')}`;
    const problem = sameEventsProblem(entryEvents(entry), site.attentionEvents ?? []);
    if (problem) return `${site.id}: ${problem}`;
  }
  return null;
}

function sameEventsProblem(events: readonly Entry[], items: readonly ItemView[]): string | null {
  if (events.length !== items.length) {
    return `${events.length} open messages under events, ${items.length} in attentionEvents`;
  }
  for (const item of items) {
    const event = events.find((e) => e['attentionId'] === item.id);
    if (!event) return `no event with attentionId ${item.id}`;
    const problem = sameFieldsProblem(event, item);
    if (problem) return problem;
  }
  return null;
}

/**
 * Why one `fleet_attention` event does not show the same message as the REST item, or `null`:
 * `module`, `subject`, `severity`, `firstAt`, `lastAt` and `occurrences` equal, and `description`
 * equal where the item has one (MCP-UNSPEC-SITE-FIELDS: for an item without one it is not judged).
 */
function sameFieldsProblem(event: Entry, item: ItemView): string | null {
  for (const field of ['module', 'subject', 'severity', 'firstAt', 'lastAt', 'occurrences'] as const) {
    if (event[field] !== item[field]) {
      return `attentionId ${item.id}: ${field} is ${JSON.stringify(event[field])} over MCP and ${JSON.stringify(item[field])} over REST`;
    }
  }
  if (typeof item.description === 'string' && event['description'] !== item.description) {
    return `attentionId ${item.id}: description differs between MCP and REST`;
  }
  return null;
}

/**
 * Why the open messages of a `fleet_attention` result are not each an open REST item of the same
 * caller, field for field, or `null` (MCP-ATTENTION-EVENTS): every event sits under the entry of a
 * site of `rest`, carries every member of `MCP_EVENT_MEMBERS` (`description` only where the item has
 * one: MCP-UNSPEC-SITE-FIELDS), and matches the item of that site whose `id` is its `attentionId`.
 * At least one event must be there. Whether every REST item shows under MCP is MCP-SAME-DATA-AS-REST.
 */
export function eventsMatchProblem(entries: readonly Entry[], rest: readonly SiteView[]): string | null {
  let count = 0;
  for (const entry of entries) {
    const site = rest.find((s) => entryOf([entry], s));
    if (!site) {
      return `fleet_attention lists an entry that is no site of the REST list: ${JSON.stringify(entry).slice(0, 300)}`;
    }
    for (const event of entryEvents(entry)) {
      count++;
      const item = (site.attentionEvents ?? []).find((i) => i.id === event['attentionId']);
      if (!item) {
        return `${site.id}: no open REST item has the attentionId of ${JSON.stringify(event).slice(0, 300)}`;
      }
      const members = MCP_EVENT_MEMBERS.filter(
        (m) => m !== 'description' || typeof item.description === 'string',
      );
      const missing = members.filter((m) => !(m in event));
      if (missing.length > 0) return `${site.id}: attentionId ${item.id} has no ${missing.join(', ')}`;
      const problem = sameFieldsProblem(event, item);
      if (problem) return `${site.id}: ${problem}`;
    }
  }
  return count > 0 ? null : 'the tool result holds no open message';
}
