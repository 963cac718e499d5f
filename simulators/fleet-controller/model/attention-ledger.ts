import { AttentionBook, type ReportOutcome } from './attention-book.ts';
import type { FleetAccess } from './fleet-access.ts';
import type { FleetChanges } from './fleet-changes.ts';
import type { FleetSnapshot } from './fleet-journal.ts';
import type { IngestLinks } from './ingest-links.ts';
import type { AttentionItem, AttentionReport, HistoryRecord } from './types.ts';

/**
 * The attention side of the controller: the items of every site (`AttentionBook`) and the
 * partners' acknowledgement history (entries written by `commitAcknowledge` and listed by
 * `historyList`, which cite the history clauses), each change written to the journal.
 */
export class AttentionLedger {
  book = new AttentionBook();
  history: HistoryRecord[] = [];
  private historySeq = 0;

  constructor(
    private readonly fleet: FleetChanges,
    private readonly access: FleetAccess,
    private readonly ingest: IngestLinks,
  ) {}

  /** The last history sequence number handed out (kept across restarts, FLEET-ITEM-ID-STABLE). */
  get lastHistorySeq(): number {
    return this.historySeq;
  }

  /** Applies one report to the site's items (EVENT-FIRST-REPORT-OPENS, EVENT-REPEAT-MERGED, EVENT-SITE-CAP). */
  report(siteId: string, report: AttentionReport): ReportOutcome {
    this.access.requireSite(siteId);
    const { journal } = this.fleet;
    const outcome = journal.atomically(() => {
      const outcome = this.book.report(siteId, report);
      const { stats } = this.ingest;
      if (outcome.kind === 'capped') {
        stats.capped++;
        stats.cappedSuppressed += report.suppressed;
      } else {
        stats.accepted++;
        journal.item(outcome.item);
        this.fleet.touchSite(siteId);
      }
      this.ingest.saveStreams();
      journal.counters(this.fleet.counters());
      return outcome;
    });
    this.fleet.changed();
    return outcome;
  }

  /**
   * Acknowledges `item` for `partnerId` (FLEET-ACK-FIRST, FLEET-ACK-REPEAT). The caller writes the
   * history entry in the same `atomically` block (FLEET-ACK-HISTORY-ONCE).
   */
  acknowledgeItem(item: AttentionItem, partnerId: string): { alreadyAcknowledged: boolean; at: number } {
    const outcome = this.book.acknowledge(item, partnerId, this.fleet.clock.now());
    if (!outcome.alreadyAcknowledged) {
      this.fleet.journal.item(item);
      // Only this partner's open list loses the item; the others' views are unchanged
      // (FLEET-ACK-OTHER-PARTNERS-UNAFFECTED).
      this.fleet.touchPartner(partnerId);
    }
    return outcome;
  }

  appendHistory(record: Omit<HistoryRecord, 'seq'>): HistoryRecord {
    const stored = { ...record, seq: ++this.historySeq };
    this.history.push(stored);
    const { journal } = this.fleet;
    journal.atomically(() => {
      journal.history(stored);
      journal.counters(this.fleet.counters());
    });
    this.fleet.changed();
    return stored;
  }

  /** Takes over what a data directory held (no journal writes). */
  restore(snapshot: FleetSnapshot): void {
    this.book.restore(snapshot.items, snapshot.counters.nextItemId);
    this.history = [...snapshot.history];
    this.historySeq = Math.max(snapshot.counters.historySeq, ...this.history.map((h) => h.seq));
  }

  clear(): void {
    this.book = new AttentionBook();
    this.history = [];
    this.historySeq = 0;
  }
}
