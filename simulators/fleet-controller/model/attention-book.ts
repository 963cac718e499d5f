import { DESCRIPTION_MAX_CHARS, SUBJECT_MAX_CHARS, truncateChars } from './text-limits.ts';
import type { AttentionItem, AttentionReport } from './types.ts';

/** EVENT-SITE-CAP: distinct items a site holds at most. */
export const SITE_ITEM_CAP = 200;

export type ReportOutcome =
  | { kind: 'created'; item: AttentionItem }
  /**
   * `details`: the merge changed more than the counts (`firstAt`, `lastAt`, `occurrences`,
   * `suppressed`, `severity`): the description, the module id, or the acknowledgements it cleared.
   */
  | { kind: 'merged'; item: AttentionItem; details: boolean }
  /** EVENT-SITE-CAP: a new site, module and subject on a full site; nothing is stored. */
  | { kind: 'capped' };

/**
 * The attention items of all sites: merging, the per-site cap, reopening and per-partner
 * acknowledgement state (maintenance-and-fleet-api.md, "States and transitions / Attention entries").
 *
 * - EVENT-FIRST-REPORT-OPENS, EVENT-REPEAT-MERGED, EVENT-KEY-SITE-MODULE-SUBJECT: the merge key is
 *   site, module display name and the (truncated) subject; `moduleId` is not part of the key.
 * - FLEET-ITEM-MODULE, FLEET-ITEM-MODULEID, FLEET-ITEM-DESCRIPTION-OPTIONAL: `module` is the
 *   report's module display name; `moduleId` and `description` are stored only when the report
 *   carries them (`setOptional`), so the item has them exactly when the module sent them.
 * - FLEET-ITEM-OCCURRENCES: a new item counts 1 and each merged report adds 1.
 * - FLEET-ITEM-LASTAT: each merged report moves `lastAt` to its own `at` (PBX clock, ms since 1970
 *   UTC); a late report with an older `at` leaves it where it is.
 * - EVENT-SITE-CAP-UPDATES: an existing item is merged before the cap is looked at, so a site
 *   holding 200 items still updates them; only a new key is refused.
 * - FLEET-ITEM-ID-STABLE: ids come from one controller-wide counter (unique across sites, so the
 *   MCP acknowledge needs no `siteId`) and stay with their key for the controller's lifetime.
 * - EVENT-UNSPEC-CAP-DETAIL: acknowledged items count towards the 200 and items never expire
 *   (only the control plane's reset removes them).
 * - EVENT-UNSPEC-CHANGED-FIELDS: severity, description and `moduleId` follow the report with the
 *   latest `at` (on a tie, the one received last); a report without description removes it.
 * - EVENT-REPORT-REOPENS: every merged report clears the acknowledgements of all partners.
 * - EVENT-THROTTLE-SUPPRESSED, FLEET-ITEM-SUPPRESSED: a report's `suppressed` (the PBX's withheld
 *   reports of the same module and subject) is added to the item it creates or merges into; a capped
 *   report's count is lost with it.
 */
export class AttentionBook {
  private nextId = 1;
  private readonly bySite = new Map<string, SiteItems>();
  private readonly byId = new Map<number, AttentionItem>();

  report(siteId: string, report: AttentionReport): ReportOutcome {
    const subject = truncateChars(report.subject, SUBJECT_MAX_CHARS);
    const description =
      report.description === undefined ? undefined : truncateChars(report.description, DESCRIPTION_MAX_CHARS);
    let items = this.bySite.get(siteId);
    const existing = items?.find(report.module, subject);
    // Merge first, cap after: a full site still updates its items (EVENT-SITE-CAP-UPDATES).
    if (existing) {
      existing.occurrences++; // FLEET-ITEM-OCCURRENCES
      existing.suppressed += report.suppressed;
      existing.firstAt = Math.min(existing.firstAt, report.at);
      let details = false;
      if (report.at >= existing.lastAt) {
        existing.lastAt = report.at; // FLEET-ITEM-LASTAT
        existing.severity = report.severity;
        details = setOptional(existing, 'description', description);
        details = setOptional(existing, 'moduleId', report.moduleId) || details;
      }
      if (existing.acks.size > 0) {
        existing.acks.clear();
        details = true;
      }
      return { kind: 'merged', item: existing, details };
    }
    if (!items) {
      items = new SiteItems();
      this.bySite.set(siteId, items);
    }
    if (items.size >= SITE_ITEM_CAP) return { kind: 'capped' };
    const item: AttentionItem = {
      id: this.nextId++,
      siteId,
      module: report.module,
      subject,
      severity: report.severity,
      firstAt: report.at,
      lastAt: report.at,
      occurrences: 1,
      suppressed: report.suppressed,
      acks: new Map(),
    };
    setOptional(item, 'description', description);
    setOptional(item, 'moduleId', report.moduleId);
    items.add(item);
    this.byId.set(item.id, item);
    return { kind: 'created', item };
  }

  /** The id the next new item gets (kept across restarts: FLEET-ITEM-ID-STABLE). */
  peekNextId(): number {
    return this.nextId;
  }

  /** Replaces every item with stored ones (a restart with a data directory). */
  restore(items: AttentionItem[], nextId: number): void {
    this.bySite.clear();
    this.byId.clear();
    let maxId = 0;
    for (const item of items) {
      let site = this.bySite.get(item.siteId);
      if (!site) {
        site = new SiteItems();
        this.bySite.set(item.siteId, site);
      }
      site.add(item);
      this.byId.set(item.id, item);
      maxId = Math.max(maxId, item.id);
    }
    this.nextId = Math.max(nextId, maxId + 1);
  }

  get(id: number): AttentionItem | undefined {
    return this.byId.get(id);
  }

  itemsOf(siteId: string): AttentionItem[] {
    return [...(this.bySite.get(siteId)?.all ?? [])];
  }

  countOf(siteId: string): number {
    return this.bySite.get(siteId)?.size ?? 0;
  }

  /**
   * Acknowledges `item` for `partnerId` (FLEET-ACK-FIRST, FLEET-ACK-REPEAT). Synchronous, so two
   * concurrent requests can never both see the item open (FLEET-ACK-HISTORY-ONCE).
   * FLEET-UNSPEC-REPEAT-ACK-TIME: a repeat returns the time of the first acknowledgement of the cycle.
   * The acknowledgement is kept per partner in `acks`: other partners of the site still see the
   * item open and their own first acknowledge is not a repeat (FLEET-ACK-OTHER-PARTNERS-UNAFFECTED).
   */
  acknowledge(
    item: AttentionItem,
    partnerId: string,
    now: number,
  ): { alreadyAcknowledged: boolean; at: number } {
    const ack = item.acks.get(partnerId);
    if (ack) return { alreadyAcknowledged: true, at: ack.at };
    item.acks.set(partnerId, { at: now });
    return { alreadyAcknowledged: false, at: now };
  }

  removeSite(siteId: string): void {
    for (const item of this.bySite.get(siteId)?.all ?? []) this.byId.delete(item.id);
    this.bySite.delete(siteId);
  }
}

/**
 * The items of one site: in the order they were created, and by their merge key, module and
 * subject (EVENT-KEY-SITE-MODULE-SUBJECT), looked up in two maps so a report builds no key string.
 */
class SiteItems {
  readonly all = new Set<AttentionItem>();
  private readonly byModule = new Map<string, Map<string, AttentionItem>>();

  get size(): number {
    return this.all.size;
  }

  find(module: string, subject: string): AttentionItem | undefined {
    return this.byModule.get(module)?.get(subject);
  }

  add(item: AttentionItem): void {
    let subjects = this.byModule.get(item.module);
    if (!subjects) {
      subjects = new Map();
      this.byModule.set(item.module, subjects);
    }
    subjects.set(item.subject, item);
    this.all.add(item);
  }
}

/** Sets or removes an optional field; whether that changed it. */
function setOptional<K extends 'description' | 'moduleId'>(
  item: AttentionItem,
  key: K,
  value: string | undefined,
): boolean {
  if (value === undefined) {
    if (item[key] === undefined) return false;
    delete item[key];
    return true;
  }
  if (item[key] === value) return false;
  item[key] = value;
  return true;
}
