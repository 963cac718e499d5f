import type { ResolvedName } from '../state/resolver-state.ts';

/** What the cache keeps of a successful query. */
export interface CachedResult {
  name: ResolvedName;
  variables: string[];
  uiValues: Record<string, string>;
}

/**
 * The cache of successful queries (RESOLVER-CACHE-OFF, RESOLVER-CACHE-SUCCESS-ONLY).
 * RESOLVER-UNSPEC-CACHE: the key is provider configuration plus canonical number, so changing a
 * provider misses; an entry lives one hour on the virtual clock; a hit sends no request; at most
 * 1000 entries, the oldest dropped first. Only resolved results are put in.
 */
export class ResolutionCache {
  static readonly LIFETIME_MS = 3_600_000;
  static readonly MAX_ENTRIES = 1000;
  private readonly entries = new Map<string, { at: number; result: CachedResult }>();

  static key(providerFingerprint: string, canonical: string): string {
    return `${providerFingerprint}\u0000${canonical}`;
  }

  get(key: string, now: number): CachedResult | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (now - entry.at >= ResolutionCache.LIFETIME_MS || now < entry.at) {
      this.entries.delete(key);
      return null;
    }
    return structuredClone(entry.result);
  }

  set(key: string, result: CachedResult, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { at: now, result: structuredClone(result) });
    while (this.entries.size > ResolutionCache.MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
