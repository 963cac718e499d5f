import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyFixture, start } from '../../../../simulators/fleet-controller/index.ts';
import { AttentionForwarder } from '../../../../simulators/pbx/events/attention-forwarder.ts';
import { THROTTLE_BURST } from '../../../../simulators/pbx/events/forwarding-limiter.ts';
import { OUTAGE_BUFFER_LIMIT } from '../../../../simulators/pbx/events/outage-buffer.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { FAST_SCRYPT } from '../../fleet-controller/fleet-test-kit.ts';

const T0 = 1_767_225_600_000;
const PBXS = 100;
/** 20 ticks of 100 ms of PBX time: 2 s at about 1,000 events per second over all PBXs. */
const TICKS = 20;
/** Backup reports twice as often as the others, so it runs into its limit. */
const PATTERN = ['Backup', 'Backup', 'Trunks', 'Monitoring'];
const SUBJECTS = ['Platte voll', 'Registrierung verloren', 'Zertifikat läuft ab'];

test('EVENT-THROTTLE-RATE, EVENT-BUFFER-LIMIT, EVENT-THROTTLE-SUPPRESSED: about 1,000 events per second from 100 PBXs for 2 s reconcile exactly with throttling and the buffer', async (t) => {
  const fleet = await start({ fixture: emptyFixture(), scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const pbxs = [];
  for (let i = 0; i < PBXS; i++) {
    const siteId = `site-${i}`;
    await fleet.control.addSite({ id: siteId, displayName: `Standort ${i}` });
    const reg = await fleet.control.registerPbx({ siteId });
    const clock = new VirtualClock({ start: T0 });
    const state = defaultState(T0);
    // every tenth PBX has no partner released (EVENT-NO-FORWARD-WITHOUT-PARTNER)
    state.maintenance.partnerReleased = i % 10 !== 0;
    const store = new PbxStore(clock, state);
    const forwarder = new AttentionForwarder(store, {
      controller: { ingest: reg.ingest, siteId, key: reg.key },
    });
    t.after(() => forwarder.close());
    pbxs.push({ siteId, clock, forwarder, raisedPerModule: new Map<string, number>() });
  }
  await Promise.all(pbxs.map((p) => p.forwarder.whenDelivered()));

  // every tenth PBX (i % 10 === 5) has its link cut by the controller for the whole run and
  // raises twice per tick, each time a new module: 40 forwarded messages, of which the buffer keeps 20.
  const outage = pbxs.filter((_, i) => i % 10 === 5);
  for (const p of outage) await fleet.control.cutLink({ siteId: p.siteId });
  await Promise.all(outage.map((p) => waitFor(() => p.forwarder.status().link !== 'up')));
  for (let tick = 0; tick < TICKS; tick++) {
    for (const [i, p] of pbxs.entries()) {
      p.clock.advance(100);
      const raises = i % 10 === 5 ? 2 : i % 10 === 0 && tick % 2 === 1 ? 0 : 1;
      for (let k = 0; k < raises; k++) {
        const module = i % 10 === 5 ? `Modul ${tick}-${k}` : PATTERN[(tick + i) % PATTERN.length]!;
        const subject = SUBJECTS[(tick + k) % SUBJECTS.length]!;
        p.forwarder.raise({ module, subject, severity: 'WARNING' });
        p.raisedPerModule.set(module, (p.raisedPerModule.get(module) ?? 0) + 1);
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  for (const p of outage) {
    await fleet.control.restoreLink({ siteId: p.siteId });
    p.forwarder.reconnectNow();
  }
  await Promise.all(pbxs.map((p) => p.forwarder.whenDelivered(15_000)));

  let totalDelivered = 0;
  let totalWithheld = 0;
  let totalPending = 0;
  let totalRaised = 0;
  for (const [i, p] of pbxs.entries()) {
    const s = p.forwarder.stats();
    totalRaised += s.raised;
    const released = i % 10 !== 0;
    const expectedRaised = i % 10 === 5 ? 2 * TICKS : i % 10 === 0 ? TICKS / 2 : TICKS;
    assert.equal(s.raised, expectedRaised);
    assert.equal(s.raised, s.notReleased + s.withheld + s.forwarded);
    assert.equal(s.forwarded, s.delivered + s.dropped, 'nothing still waits');
    // 2 s of PBX time is far below 2 minutes: each module forwards exactly its burst of 5.
    const expectedForwarded = released
      ? [...p.raisedPerModule.values()].reduce((sum, n) => sum + Math.min(n, THROTTLE_BURST), 0)
      : 0;
    assert.equal(s.forwarded, expectedForwarded, `PBX ${i}`);
    assert.equal(s.notReleased, released ? 0 : expectedRaised);
    // EVENT-BUFFER-LIMIT: of the 40 messages of the outage exactly 20 arrive
    assert.equal(s.dropped, i % 10 === 5 ? 2 * TICKS - OUTAGE_BUFFER_LIMIT : 0);
    assert.equal(
      s.withheld,
      released
        ? [...p.raisedPerModule.values()].reduce((sum, n) => sum + Math.max(0, n - THROTTLE_BURST), 0)
        : 0,
    );
    const items = await fleet.control.items({ siteId: p.siteId });
    assert.equal(
      items.reduce((sum, item) => sum + item.occurrences, 0),
      s.delivered,
      `PBX ${i}: occurrences at the controller equal the delivered reports`,
    );
    assert.equal(items.reduce((sum, item) => sum + item.suppressed, 0) + s.pendingSuppressed, s.withheld);
    totalDelivered += s.delivered;
    totalWithheld += s.withheld;
    totalPending += s.pendingSuppressed;
  }
  const stats = await fleet.control.stats();
  // 80 PBXs × 20 + 10 × 40 + 10 × 10 = 2,100 events in 2 s of PBX time
  assert.equal(totalRaised, 2_100);
  assert.equal(stats.accepted, totalDelivered);
  assert.equal(stats.capped, 0);
  assert.equal(stats.invalid, 0);
  assert.ok(
    totalWithheld > 0 && totalPending === totalWithheld,
    'no module forwarded again after its burst, so every withheld report is pending',
  );
});

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}
