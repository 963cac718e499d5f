import type { TimerId } from '../../shared/clock.ts';
import { copyState } from '../state/state-copy.ts';
import type { PbxStore } from '../state/store.ts';
import type { PbxState, SnapshotFormat } from '../state/types.ts';
import { readLinuxSections } from './render/linux-sections.ts';

/**
 * One immutable picture of the PBX, shared by the data endpoint and the XML-RPC queries
 * (MON-SHARED-SNAPSHOT, MON-FORMATS-SAME-SNAPSHOT). Rendered bytes are memoised per snapshot so a
 * warm cache answers without rendering again.
 */
export interface Snapshot {
  /** Virtual-clock time the snapshot was taken. */
  readonly takenAt: number;
  /** Sequence number of the snapshot within this simulator (1, 2, …). */
  readonly serial: number;
  readonly state: Readonly<PbxState>;
  /** The standard Linux sections as agent text, or `null` when the agent script failed. */
  readonly linuxSections: string | null;
  /** Memoised renderings, keyed by format or document name. */
  readonly rendered: Map<string, Buffer>;
}

/**
 * The snapshot cache on the injected clock: a snapshot lives `monitoring.cacheLifetimeMs`
 * (default 30 s, MON-CACHE-DEFAULT, MON-CACHE-CONFIGURABLE) from its creation; the first request
 * after that takes a fresh one. When its lifetime has passed the cache lets go of it (a timer on
 * the same clock), so a PBX that was fetched once and then left alone does not keep a copy of
 * its state and the renderings until its next fetch: under polling, a fleet holds snapshots only
 * for the PBXs fetched within the last lifetime. A lifetime set longer while a snapshot lives
 * extends it (the release checks the lifetime again), exactly as `get` does.
 */
export class SnapshotCache {
  private current: Snapshot | undefined;
  private release: TimerId | undefined;
  private serial = 0;

  constructor(private readonly store: PbxStore) {}

  get(): Snapshot {
    const now = this.store.clock.now();
    const lifetime = this.store.read().monitoring.cacheLifetimeMs;
    if (this.current && now - this.current.takenAt < lifetime) return this.current;
    const snapshot = this.take(now);
    this.invalidate();
    // A lifetime of 0 (or less) shares nothing: there is nothing to keep.
    if (lifetime > 0) {
      this.current = snapshot;
      this.armRelease(lifetime);
    }
    return snapshot;
  }

  /** Drops the cached snapshot (control plane `POST /snapshot/invalidate`, scenario loads). */
  invalidate(): void {
    this.current = undefined;
    if (this.release === undefined) return;
    this.store.clock.clearTimer(this.release);
    this.release = undefined;
  }

  /** Lets go of the snapshot once `get` would no longer serve it (see the class comment). */
  private armRelease(leftMs: number): void {
    this.release = this.store.clock.setTimer(() => {
      this.release = undefined;
      const current = this.current;
      if (!current) return;
      const left = current.takenAt + this.store.read().monitoring.cacheLifetimeMs - this.store.clock.now();
      if (left > 0) this.armRelease(left);
      else this.current = undefined;
    }, leftMs);
  }

  private take(now: number): Snapshot {
    const state = copyState(this.store.read()) as PbxState;
    return snapshotOf(state, now, {
      serial: ++this.serial,
      linuxScriptFails: this.store.hasFault('linux-script-failure'),
    });
  }
}

/**
 * A snapshot of `state` taken at `takenAt` (virtual time), as the cache takes one; the state is
 * used as given, not copied. `linuxScriptFails`: the Linux sections are missing (the fault).
 */
export function snapshotOf(
  state: Readonly<PbxState>,
  takenAt: number,
  options: { serial?: number; linuxScriptFails?: boolean } = {},
): Snapshot {
  const linuxSections = options.linuxScriptFails ? null : readLinuxSections(state as PbxState);
  return Object.freeze({ takenAt, serial: options.serial ?? 1, state, linuxSections, rendered: new Map() });
}

/** The formats of the data endpoint; the agent-text token is `checkmk` (MON-QUERY-FORMAT). */
export const SNAPSHOT_FORMATS: readonly SnapshotFormat[] = ['checkmk', 'xml', 'json'];

export const CONTENT_TYPES: Record<SnapshotFormat, string> = {
  checkmk: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};
