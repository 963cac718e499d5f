/** EVENT-THROTTLE-BURST: events a module may forward at once. */
export const THROTTLE_BURST = 5;
/** EVENT-THROTTLE-RATE: after the burst, one event per this many ms. */
export const THROTTLE_INTERVAL_MS = 2 * 60 * 1000;

/** Keys beyond this are pruned when idle (a full bucket is the same as no bucket). */
const MAX_KEYS = 10_000;

interface Bucket {
  /** Credit in ms: one event costs `THROTTLE_INTERVAL_MS`; at most `THROTTLE_BURST` events' worth. */
  credit: number;
  at: number;
}

/**
 * The forwarding limit per module and system (EVENT-THROTTLE-BURST, EVENT-THROTTLE-RATE,
 * EVENT-THROTTLE-PER-MODULE), on the PBX's virtual clock.
 *
 * EVENT-UNSPEC-THROTTLE-ALGORITHM: a token bucket per module of capacity 5 that refills one token
 * every 2 minutes, continuously. Kept in integer milliseconds of credit (capacity 5 × 120 000 ms,
 * cost 120 000 ms per event, +1 per elapsed ms), which is exactly the bucket that gains a whole
 * token each full 2 minutes after it dropped below capacity. So a module forwards 5 events at
 * once, then one per 2 minutes while it keeps reporting, and after 10 quiet minutes 5 at once again.
 * A fresh module starts full.
 */
export class ForwardingLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Takes one token for `key` at `now`; `false` when the event must be withheld. */
  take(key: string, now: number): boolean {
    const capacity = THROTTLE_BURST * THROTTLE_INTERVAL_MS;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_KEYS) this.prune(now);
      bucket = { credit: capacity, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.credit = Math.min(capacity, bucket.credit + Math.max(0, now - bucket.at));
    bucket.at = Math.max(bucket.at, now);
    if (bucket.credit < THROTTLE_INTERVAL_MS) return false;
    bucket.credit -= THROTTLE_INTERVAL_MS;
    return true;
  }

  /** Whole tokens `key` has at `now` (for the control plane's status). */
  tokens(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return THROTTLE_BURST;
    const credit = Math.min(
      THROTTLE_BURST * THROTTLE_INTERVAL_MS,
      bucket.credit + Math.max(0, now - bucket.at),
    );
    return Math.floor(credit / THROTTLE_INTERVAL_MS);
  }

  clear(): void {
    this.buckets.clear();
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.credit + (now - bucket.at) >= THROTTLE_BURST * THROTTLE_INTERVAL_MS)
        this.buckets.delete(key);
    }
  }
}
