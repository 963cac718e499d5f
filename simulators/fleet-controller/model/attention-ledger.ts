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
  /** The running `reportBatch`: how many reports it applied and the sites they touched. */
  private batch: { reports: number; touched: Set<string> } | null = null;

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
    const batch = this.batch;
    if (batch) {
      // Inside `reportBatch`: what follows every report is done once, when the batch is over.
      const outcome = this.apply(siteId, report);
      batch.reports++;
      if (outcome.kind !== 'capped') batch.touched.add(siteId);
      return outcome;
    }
    const { journal } = this.fleet;
    const outcome = journal.atomically(() => {
      const outcome = this.apply(siteId, report);
      if (outcome.kind !== 'capped') this.fleet.touchSite(siteId);
      this.ingest.saveStreams();
      journal.counters(this.fleet.counters());
      return outcome;
    });
    this.fleet.changed();
    return outcome;
  }

  /**
   * Runs `fn`, which applies many reports (a batch of ingested lines, issue 31 §3), in one
   * journal `batch` (one transaction, committed when `committed` settles), and does what follows a report once for the whole batch instead of once per
   * report: the touched sites' view revisions (FLEET-UNSPEC-ETAG), the stream positions and the
   * counters (written last in the block, so they commit with the reports exactly as per-report
   * writes would have left them) and the `change` event. Nothing can read the state between the
   * reports of a batch: it runs synchronously.
   */
  reportBatch<T>(fn: () => T): { result: T; committed: Promise<void> | null } {
    if (this.batch) return { result: fn(), committed: null };
    const batch = { reports: 0, touched: new Set<string>() };
    this.batch = batch;
    const { journal } = this.fleet;
    try {
      return journal.batch(() => {
        try {
          return fn();
        } finally {
          this.batch = null;
          for (const siteId of batch.touched) this.fleet.touchSite(siteId);
          if (batch.reports > 0) {
            this.ingest.saveStreams();
            journal.counters(this.fleet.counters());
          }
        }
      });
    } finally {
      this.batch = null;
      if (batch.reports > 0) this.fleet.changed();
    }
  }

  /** The merge of one report and its item's journal write; the caller does the rest. */
  private apply(siteId: string, report: AttentionReport): ReportOutcome {
    const outcome = this.book.report(siteId, report);
    const { stats } = this.ingest;
    if (outcome.kind === 'capped') {
      stats.capped++;
      stats.cappedSuppressed += report.suppressed;
    } else {
      stats.accepted++;
      // A merge that changed only the counts lets the store write only those (issue 31 §3).
      this.fleet.journal.item(outcome.item, outcome.kind === 'merged' && !outcome.details ? 'counts' : 'all');
    }
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
