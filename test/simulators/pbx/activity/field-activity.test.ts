import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACTIVITY_TICK_MS, FieldActivity } from '../../../../simulators/pbx/activity/field-activity.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { type Clock, VirtualClock } from '../../../../simulators/shared/clock.ts';

/** 2026-01-05 00:00 UTC, a minute's start. */
const START = Date.UTC(2026, 0, 5);

/** When (PBX clock) each of `sites` took its steps over `minutes`, advanced a second at a time. */
function stepTimes(
  mode: 'running' | 'frozen',
  sites: string[],
  minutes: number,
  wrap: (clock: VirtualClock) => Clock = (clock) => clock,
) {
  let base = 0;
  const clock = new VirtualClock({ mode, start: START, base: () => base });
  const pbxClock = wrap(clock);
  const steps = new Map<string, number[]>();
  const raisedAt = new Map<string, number[]>();
  const activities = sites.map((siteId) => {
    const store = new PbxStore(pbxClock, defaultState(START));
    steps.set(siteId, []);
    raisedAt.set(siteId, []);
    store.on('change', () => steps.get(siteId)!.push(clock.now()));
    const activity = new FieldActivity(store, {
      raise: (event) => raisedAt.get(siteId)!.push(event.at ?? Number.NaN),
    });
    activity.start({ seed: 'spread', siteId, eventsPerHour: 600, stormsPerDay: 0 });
    return activity;
  });
  for (let second = 0; second < minutes * 60; second++) {
    if (mode === 'running') base += 1_000;
    clock.advance(mode === 'running' ? 0 : 1_000);
  }
  for (const activity of activities) activity.stop();
  return { steps, raisedAt };
}

test('on a running clock each PBX steps once a minute at its own point in the minute, describing the minute', () => {
  const sites = Array.from({ length: 12 }, (_, i) => `site-demo-${i + 1}`);
  const { steps, raisedAt } = stepTimes('running', sites, 3);
  const offsets = new Set<number>();
  for (const siteId of sites) {
    const times = steps.get(siteId)!;
    assert.equal(times.length, 3, `${siteId} stepped once per minute`);
    const offset = (times[0]! - START) % ACTIVITY_TICK_MS;
    assert.ok(
      times.every((t) => (t - START) % ACTIVITY_TICK_MS === offset),
      'at the same point each minute',
    );
    offsets.add(Math.floor(offset / 1_000));
    // The events of a step carry the minute they describe, not the moment it was taken.
    assert.ok(raisedAt.get(siteId)!.length > 0);
    assert.ok(raisedAt.get(siteId)!.every((at) => (at - START) % ACTIVITY_TICK_MS === 0));
  }
  assert.ok(offsets.size >= 6, `12 PBXs spread over the minute, not all at once (${[...offsets]})`);
});

test('on a frozen clock every PBX steps at the minute, as `advance` drives it', () => {
  const sites = ['site-kiel', 'site-bremen', 'site-hamburg'];
  const { steps } = stepTimes('frozen', sites, 2);
  for (const siteId of sites)
    assert.deepEqual(steps.get(siteId), [START + ACTIVITY_TICK_MS, START + 2 * ACTIVITY_TICK_MS]);
});

test('field activity reads the mode from the Clock interface: a running clock of another kind spreads the steps too', () => {
  const sites = Array.from({ length: 12 }, (_, i) => `site-demo-${i + 1}`);
  // A clock that is not a VirtualClock (one delegating to it) states its mode as the interface asks.
  const delegating = (inner: VirtualClock): Clock => ({
    mode: inner.mode,
    now: () => inner.now(),
    setTimer: (callback, delayMs) => inner.setTimer(callback, delayMs),
    clearTimer: (id) => inner.clearTimer(id),
  });
  const { steps } = stepTimes('running', sites, 2, delegating);
  const offsets = new Set(sites.map((siteId) => (steps.get(siteId)![0]! - START) % ACTIVITY_TICK_MS));
  assert.ok(offsets.size >= 6, `spread over the minute (${[...offsets]})`);
  // And a clock that does not say its mode is not a Clock (checked by the type check).
  // @ts-expect-error `mode` is part of the Clock interface
  const modeless: Clock = { now: () => START, setTimer: () => 0, clearTimer: () => {} };
  assert.equal(modeless.mode, undefined);
});
