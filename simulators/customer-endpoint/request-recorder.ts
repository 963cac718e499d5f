import type { RecordedRequest } from './recorded-request.ts';

/**
 * The recordings of the customer endpoint: every request received, oldest first, bounded (the
 * oldest drop first), and the waiters of `waitFor` woken as requests arrive.
 */
export class RequestRecorder {
  private readonly records: RecordedRequest[] = [];
  private readonly waiters = new Set<{ wake: () => void; cancel: () => void }>();
  private seq = 0;

  constructor(private readonly maxRecords = 1000) {}

  /** The sequence number the next recording gets. */
  nextSeq(): number {
    return ++this.seq;
  }

  add(record: RecordedRequest): void {
    this.records.push(record);
    if (this.records.length > this.maxRecords) this.records.splice(0, this.records.length - this.maxRecords);
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  get count(): number {
    return this.records.length;
  }

  /** Copies of every recording, oldest first. */
  list(): RecordedRequest[] {
    return this.records.map((r) => ({
      ...r,
      headers: r.headers.map(([n, v]) => [n, v] as [string, string]),
    }));
  }

  clear(): void {
    this.records.length = 0;
  }

  /** Resolves once `count` requests are recorded; rejects after `timeoutMs` or when cancelled. */
  waitFor(count: number, timeoutMs: number): Promise<RecordedRequest[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.records.length < count) return;
        cleanup();
        resolve(this.list());
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`expected ${count} requests within ${timeoutMs} ms, got ${this.records.length}`));
      }, timeoutMs);
      const waiter = {
        wake: check,
        cancel: () => {
          cleanup();
          reject(new Error('the customer endpoint closed'));
        },
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
      check();
    });
  }

  /** Rejects every outstanding `waitFor` (the endpoint is closing). */
  cancelWaiters(): void {
    for (const waiter of [...this.waiters]) waiter.cancel();
  }
}
