import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resolveScenario } from '../../../../simulators/pbx/load-scenario.ts';
import { type Snapshot, SnapshotCache } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

// A real collection, so the tests see what the cache still references, not what it says it holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const NOW = 1_750_000_000_000;

function cacheOn(clock: VirtualClock, lifetimeMs: number): { store: PbxStore; cache: SnapshotCache } {
  const store = new PbxStore(clock, resolveScenario('healthy', clock.now()));
  store.update((s) => {
    s.monitoring.cacheLifetimeMs = lifetimeMs;
  });
  return { store, cache: new SnapshotCache(store) };
}

/** Whether the snapshot is still reachable once the collector has run (twice, for weak cells). */
async function stillHeld(ref: WeakRef<Snapshot>): Promise<boolean> {
  for (let i = 0; i < 2; i++) {
    await sleep(0);
    collectGarbage();
  }
  return ref.deref() !== undefined;
}

/** Fetches once the way a poller does (rendering included) and keeps only a weak reference. */
function fetchOnce(cache: SnapshotCache): { ref: WeakRef<Snapshot>; serial: number } {
  const snapshot = cache.get();
  snapshot.rendered.set('checkmk', Buffer.alloc(64 * 1024));
  return { ref: new WeakRef(snapshot), serial: snapshot.serial };
}

test('a snapshot is kept for its lifetime and let go of when it has passed, on a frozen clock (MON-CACHE-DEFAULT)', async () => {
  const clock = new VirtualClock({ start: NOW });
  const { cache } = cacheOn(clock, 30_000);
  const { ref, serial } = fetchOnce(cache);
  clock.advance(29_999);
  assert.equal(await stillHeld(ref), true, 'released within its lifetime');
  assert.equal(cache.get().serial, serial, 'a request within the lifetime got another snapshot');
  clock.advance(1);
  assert.equal(await stillHeld(ref), false, 'the cache still holds the snapshot after its lifetime');
  assert.equal(cache.get().serial, serial + 1, 'a request after the lifetime gets a fresh snapshot');
  clock.dispose();
});

test('on a running clock a PBX fetched once lets go of its snapshot by itself (MON-CACHE-CONFIGURABLE)', async () => {
  const clock = new VirtualClock({ start: NOW, mode: 'running' });
  const { cache } = cacheOn(clock, 40);
  const { ref } = fetchOnce(cache);
  assert.equal(clock.pendingTimers(), 1, 'no release armed');
  for (let i = 0; i < 100 && clock.pendingTimers() > 0; i++) await sleep(10);
  assert.equal(await stillHeld(ref), false, 'the cache still holds the snapshot after its lifetime');
  clock.dispose();
});

test('a lifetime set longer while a snapshot lives keeps it that much longer (MON-CACHE-CONFIGURABLE)', async () => {
  const clock = new VirtualClock({ start: NOW });
  const { store, cache } = cacheOn(clock, 30_000);
  const { ref, serial } = fetchOnce(cache);
  store.update((s) => {
    s.monitoring.cacheLifetimeMs = 60_000;
  });
  clock.advance(45_000);
  assert.equal(await stillHeld(ref), true, 'released at the old lifetime');
  assert.equal(cache.get().serial, serial, 'the longer lifetime did not extend the snapshot');
  clock.advance(15_000);
  assert.equal(await stillHeld(ref), false, 'still held after the longer lifetime');
  clock.dispose();
});

test('invalidating the cache drops the snapshot and its release timer', async () => {
  const clock = new VirtualClock({ start: NOW });
  const { cache } = cacheOn(clock, 30_000);
  const { ref, serial } = fetchOnce(cache);
  cache.invalidate();
  assert.equal(clock.pendingTimers(), 0, 'the release timer outlived the invalidation');
  assert.equal(await stillHeld(ref), false);
  assert.equal(cache.get().serial, serial + 1);
  assert.equal(clock.pendingTimers(), 1, 'one release per snapshot');
  clock.dispose();
});
