import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AttentionForwarder } from '../../../../simulators/pbx/events/attention-forwarder.ts';
import {
  ForwardingLimiter,
  THROTTLE_INTERVAL_MS,
} from '../../../../simulators/pbx/events/forwarding-limiter.ts';
import { OUTAGE_BUFFER_LIMIT } from '../../../../simulators/pbx/events/outage-buffer.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { FakeChannel } from './fake-channel.ts';

const T0 = 1_767_225_600_000;
const SETTINGS = { ingest: 'tcp://127.0.0.1:1', siteId: 'site-a', key: 'k' };

function rig(options: { released?: boolean } = {}) {
  const clock = new VirtualClock({ start: T0 });
  const state = defaultState(T0);
  state.maintenance.partnerReleased = options.released ?? true;
  const store = new PbxStore(clock, state);
  let channel: FakeChannel | undefined;
  const forwarder = new AttentionForwarder(store, {
    controller: SETTINGS,
    channelFactory: () => {
      channel = new FakeChannel();
      return channel;
    },
  });
  return { clock, store, forwarder, channel: channel! };
}

const event = (module: string, subject = 'Platte voll') => ({ module, subject, severity: 'ERROR' as const });

test('EVENT-NO-FORWARD-WITHOUT-PARTNER, EVENT-SYSTEM-REPORT: without a released partner nothing is forwarded, but a system report is written', async () => {
  const { store, forwarder, channel } = rig({ released: false });
  channel.up();
  const before = store.read().system.systemMessages;
  assert.equal(forwarder.raise(event('Backup')), 'not-released');
  assert.equal(channel.events().length, 0);
  assert.equal(store.read().system.systemMessages, before + 1);
  const log = store.moduleLog().filter((e) => e.source === 'events');
  assert.equal(log.length, 1);
  assert.match(log[0]!.message, /Backup: Platte voll/);
  assert.equal(forwarder.stats().notReleased, 1);
  await forwarder.close();
});

test('EVENT-FORWARD-WITH-PARTNER: with a released partner the event goes to the controller with the PBX clock time', async () => {
  const { clock, forwarder, channel } = rig();
  channel.up();
  clock.advance(500);
  assert.equal(forwarder.raise({ ...event('Backup'), moduleId: 'mod-b', description: 'NAS prüfen' }), 'sent');
  const [sent] = channel.events();
  assert.deepEqual(sent, {
    type: 'event',
    seq: 1,
    event: {
      module: 'Backup',
      moduleId: 'mod-b',
      subject: 'Platte voll',
      description: 'NAS prüfen',
      severity: 'ERROR',
      at: T0 + 500,
    },
    suppressed: 0,
  });
  channel.deliver();
  assert.equal(forwarder.stats().delivered, 1);
  await forwarder.close();
});

test('EVENT-THROTTLE-SUPPRESSED: withheld reports reach the controller as suppressed on the next forwarded report of that module and subject', async () => {
  const { clock, forwarder, channel } = rig();
  channel.up();
  const outcomes = Array.from({ length: 8 }, () => forwarder.raise(event('Backup')));
  assert.deepEqual(outcomes, ['sent', 'sent', 'sent', 'sent', 'sent', 'withheld', 'withheld', 'withheld']);
  assert.equal(forwarder.raise(event('Trunks')), 'sent', 'EVENT-THROTTLE-PER-MODULE');
  clock.advance(THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup', 'other subject')), 'sent');
  assert.equal(channel.events().at(-1)!.suppressed, 0, 'another subject carries none of them');
  assert.equal(forwarder.stats().pendingSuppressed, 3);
  clock.advance(THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup')), 'sent');
  assert.equal(channel.events().at(-1)!.suppressed, 3);
  assert.equal(channel.events().find((m) => m.event.module === 'Trunks')!.suppressed, 0);
  assert.equal(forwarder.stats().pendingSuppressed, 0);
  await forwarder.close();
});

test('FLEET-ITEM-SUPPRESSED: withheld reports of two subjects of one module are each carried by a report of their own subject', async () => {
  const { clock, forwarder, channel } = rig();
  channel.up();
  // The burst: 3 of A and 2 of B pass; the limit is per module, so the next 2 of A and 3 of B are withheld.
  for (const subject of ['A', 'A', 'A', 'B', 'B'])
    assert.equal(forwarder.raise(event('Backup', subject)), 'sent');
  for (const subject of ['A', 'B', 'A', 'B', 'B'])
    assert.equal(forwarder.raise(event('Backup', subject)), 'withheld');
  clock.advance(5 * THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup', 'A')), 'sent');
  assert.equal(forwarder.raise(event('Backup', 'B')), 'sent');
  const [a, b] = channel.events().slice(-2);
  assert.deepEqual([a!.event.subject, a!.suppressed], ['A', 2]);
  assert.deepEqual([b!.event.subject, b!.suppressed], ['B', 3]);
  assert.equal(forwarder.stats().pendingSuppressed, 0);
  await forwarder.close();
});

test('EVENT-UNSPEC-BUFFER-OVERFLOW: a dropped message passes its withheld count to the next buffered message of its module and subject only', async () => {
  const { clock, forwarder, channel } = rig();
  for (let i = 0; i < 5; i++) forwarder.raise(event('Backup', 'A'));
  forwarder.raise(event('Backup', 'A')); // withheld
  clock.advance(THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup', 'A')), 'buffered'); // carries suppressed 1
  clock.advance(THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup', 'B')), 'buffered'); // carries none
  for (let i = 0; i < OUTAGE_BUFFER_LIMIT - 1; i++) forwarder.raise(event(`filler-${i}`));
  assert.equal(forwarder.stats().dropped, 6, 'the burst of A and the carrier of A are dropped');
  assert.equal(forwarder.stats().pendingSuppressed, 1, "B's buffered message did not take A's count");
  channel.up();
  assert.equal(channel.events().find((m) => m.event.subject === 'B')!.suppressed, 0);
  await forwarder.close();
});

test('EVENT-BUFFER-OFFLINE, EVENT-BUFFER-LIMIT, EVENT-UNSPEC-BUFFER-OVERFLOW: around 20 messages, an outage keeps the newest 20 and sends them after reconnect', async () => {
  for (const n of [
    0,
    1,
    OUTAGE_BUFFER_LIMIT - 1,
    OUTAGE_BUFFER_LIMIT,
    OUTAGE_BUFFER_LIMIT + 1,
    OUTAGE_BUFFER_LIMIT + 7,
  ]) {
    const { forwarder, channel } = rig();
    for (let i = 0; i < n; i++) assert.equal(forwarder.raise(event(`module-${i}`)), 'buffered');
    assert.equal(forwarder.stats().buffered, Math.min(n, OUTAGE_BUFFER_LIMIT));
    channel.up();
    const sent = channel.events().map((m) => m.event.module);
    const expected = Array.from({ length: n }, (_, i) => `module-${i}`).slice(
      Math.max(0, n - OUTAGE_BUFFER_LIMIT),
    );
    assert.deepEqual(sent, expected, `n = ${n}`);
    channel.deliver();
    assert.deepEqual(
      { ...forwarder.stats(), pendingSuppressed: 0 },
      {
        raised: n,
        notReleased: 0,
        withheld: 0,
        forwarded: n,
        delivered: Math.min(n, OUTAGE_BUFFER_LIMIT),
        dropped: Math.max(0, n - OUTAGE_BUFFER_LIMIT),
        buffered: 0,
        inFlight: 0,
        pendingSuppressed: 0,
      },
    );
    await forwarder.close();
  }
});

test('EVENT-UNSPEC-BUFFER-OVERFLOW: a dropped message passes its withheld count on, so suppressed still counts every withheld report', async () => {
  const { clock, forwarder, channel } = rig();
  // 5 pass, 2 withheld; all while the link is down
  for (let i = 0; i < 7; i++) forwarder.raise(event('Backup'));
  clock.advance(THROTTLE_INTERVAL_MS);
  assert.equal(forwarder.raise(event('Backup')), 'buffered'); // carries suppressed 2
  for (let i = 0; i < OUTAGE_BUFFER_LIMIT; i++) forwarder.raise(event(`filler-${i}`));
  assert.equal(forwarder.stats().dropped, 6);
  assert.equal(forwarder.stats().pendingSuppressed, 2, 'the dropped carrier gave its count back');
  channel.up();
  clock.advance(THROTTLE_INTERVAL_MS);
  forwarder.raise(event('Backup'));
  assert.equal(channel.events().at(-1)!.suppressed, 2);
  await forwarder.close();
});

test('messages unacknowledged at an outage are re-sent after reconnect unless the controller already has them', async () => {
  const { forwarder, channel } = rig();
  channel.up();
  forwarder.raise(event('A'));
  forwarder.raise(event('B'));
  assert.equal(forwarder.stats().inFlight, 2);
  channel.down(); // the model controller applied both; their acks are lost
  forwarder.raise(event('C'));
  channel.up();
  assert.deepEqual(
    channel.events().map((m) => m.event.module),
    ['A', 'B', 'C'],
    'welcome lastSeq 2: A and B count as delivered without a re-send',
  );
  channel.deliver();
  assert.equal(forwarder.stats().delivered, 3);
  assert.deepEqual(
    channel.applied.map((m) => m.seq),
    [1, 2, 3],
  );
  await forwarder.close();
});

type Op =
  | { kind: 'raise'; module: string; subject: string }
  | { kind: 'advance'; ms: number }
  | { kind: 'up' }
  | { kind: 'down' }
  | { kind: 'deliver' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('raise' as const),
      module: fc.constantFrom('Backup', 'Trunks', 'Monitoring'),
      subject: fc.constantFrom('Platte voll', 'Band fehlt'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: THROTTLE_INTERVAL_MS - 1, max: 3 * THROTTLE_INTERVAL_MS }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'up' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'down' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'deliver' as const }) },
);

test('EVENT-THROTTLE-RATE, EVENT-THROTTLE-SUPPRESSED, FLEET-ITEM-SUPPRESSED, EVENT-BUFFER-LIMIT: over generated timings, module and subject mixes and outages the counts reconcile exactly, per module and subject', () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 150 }), (ops) => {
      const { clock, forwarder, channel } = rig();
      const model = new ForwardingLimiter();
      let raised = 0;
      let modelWithheld = 0;
      const withheldPerItem = new Map<string, number>();
      const itemOf = (module: string, subject: string) => JSON.stringify([module, subject]);
      for (const op of ops) {
        if (op.kind === 'raise') {
          raised++;
          const expectPass = model.take(op.module, clock.now());
          const outcome = forwarder.raise(event(op.module, op.subject));
          assert.equal(outcome === 'withheld', !expectPass);
          if (!expectPass) {
            modelWithheld++;
            const key = itemOf(op.module, op.subject);
            withheldPerItem.set(key, (withheldPerItem.get(key) ?? 0) + 1);
          }
        } else if (op.kind === 'advance') clock.advance(op.ms);
        else if (op.kind === 'up' && channel.state !== 'up') {
          const before = channel.events().length;
          const inFlight = forwarder.stats().inFlight;
          channel.up();
          assert.ok(channel.events().length - before <= inFlight + OUTAGE_BUFFER_LIMIT, 'EVENT-BUFFER-LIMIT');
        } else if (op.kind === 'down') channel.down();
        else if (op.kind === 'deliver' && channel.state === 'up') channel.deliver();
        const s = forwarder.stats();
        assert.ok(s.buffered <= OUTAGE_BUFFER_LIMIT);
        assert.equal(s.raised, raised);
        assert.equal(s.withheld, modelWithheld);
        assert.equal(s.raised, s.notReleased + s.withheld + s.forwarded);
        assert.equal(s.forwarded, s.delivered + s.dropped + s.buffered + s.inFlight);
      }
      // Everything still waiting reaches the model controller; then suppressed counts every withheld report.
      if (channel.state !== 'up') channel.up();
      channel.deliver();
      const s = forwarder.stats();
      const carried = channel.applied.reduce((sum, m) => sum + m.suppressed, 0);
      assert.equal(carried + s.pendingSuppressed, s.withheld);
      assert.equal(channel.applied.length, s.delivered);
      assert.equal(s.forwarded, s.delivered + s.dropped);
      // After a long pause one report per module and subject passes and brings the rest: each
      // item's suppressed is exactly its own withheld reports.
      clock.advance(5 * THROTTLE_INTERVAL_MS);
      for (const key of withheldPerItem.keys()) {
        const [module, subject] = JSON.parse(key) as [string, string];
        assert.equal(forwarder.raise(event(module, subject)), 'sent');
      }
      channel.deliver();
      assert.equal(forwarder.stats().pendingSuppressed, 0);
      const carriedPerItem = new Map<string, number>();
      for (const m of channel.applied) {
        const key = itemOf(m.event.module, m.event.subject);
        carriedPerItem.set(key, (carriedPerItem.get(key) ?? 0) + m.suppressed);
      }
      for (const [key, withheld] of withheldPerItem) assert.equal(carriedPerItem.get(key), withheld, key);
      void forwarder.close();
    }),
    { numRuns: 300 },
  );
});

test('the inventory goes out on connect and again when the PBX state changes', async () => {
  const { store, forwarder, channel } = rig();
  channel.up();
  const inventories = () => channel.wire.filter((m) => m.type === 'inventory');
  assert.equal(inventories().length, 1);
  store.update((s) => {
    s.sipProviders[0]!.registered = false;
  });
  assert.equal(inventories().length, 2);
  const last = inventories().at(-1);
  assert.ok(last?.type === 'inventory' && last.inventory.sipProviders.some((p) => !p.registered));
  store.update((s) => {
    s.traffic.webSessions++;
  });
  assert.equal(inventories().length, 2, 'no resend without an inventory change');
  await forwarder.close();
});

test('reset starts a fresh module: counters, buffer and limiter are cleared and a new stream begins', async () => {
  const clock = new VirtualClock({ start: T0 });
  const store = new PbxStore(clock, defaultState(T0));
  const streams: string[] = [];
  const channels: FakeChannel[] = [];
  const forwarder = new AttentionForwarder(store, {
    controller: SETTINGS,
    channelFactory: (_, stream) => {
      streams.push(stream);
      channels.push(new FakeChannel());
      return channels.at(-1)!;
    },
  });
  for (let i = 0; i < 7; i++) forwarder.raise(event('Backup'));
  store.reset(); // the PBX control plane's reset
  assert.equal(streams.length, 2);
  assert.notEqual(streams[0], streams[1]);
  assert.deepEqual(forwarder.stats(), {
    raised: 0,
    notReleased: 0,
    withheld: 0,
    forwarded: 0,
    delivered: 0,
    dropped: 0,
    buffered: 0,
    inFlight: 0,
    pendingSuppressed: 0,
  });
  assert.equal(forwarder.raise(event('Backup')), 'buffered');
  assert.deepEqual(forwarder.status(), { link: 'down', siteId: 'site-a', stats: forwarder.stats() });
  await forwarder.close();
});

test('a clock advance over many refresh intervals sends one periodic inventory, with the state at its end', async () => {
  const { clock, store, forwarder, channel } = rig();
  channel.up();
  const inventories = () => channel.wire.filter((m) => m.type === 'inventory');
  assert.equal(inventories().length, 1);
  clock.advance(5 * 60 * 1000 * 1000);
  store.update((s) => {
    s.traffic.webSessions++;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(inventories().length, 2, 'a thousand elapsed intervals give one refresh, not one each');
  clock.advance(5 * 60 * 1000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(inventories().length, 3, 'the refresh timer is still armed after the long advance');
  await forwarder.close();
});

// Issue 20, item 18: after `PUT /events/controller null` the control plane's reset left the link
// off, and a later verify on that simulator failed 59 of 62 EVENT and FLEET scenarios.
test('reset restores the controller link the PBX started with, whatever PUT /events/controller set since', async () => {
  const store = new PbxStore(new VirtualClock({ start: T0 }), defaultState(T0));
  const opened: { siteId: string }[] = [];
  const forwarder = new AttentionForwarder(store, {
    controller: SETTINGS,
    channelFactory: (settings) => {
      opened.push({ siteId: settings.siteId });
      return new FakeChannel();
    },
  });
  forwarder.configure(null);
  assert.deepEqual(forwarder.status().link, 'disabled');
  store.reset();
  assert.equal(forwarder.status().siteId, 'site-a');
  assert.notEqual(forwarder.status().link, 'disabled');
  forwarder.configure({ ingest: 'tcp://127.0.0.1:2', siteId: 'site-b', key: 'k2' });
  store.reset();
  assert.equal(forwarder.status().siteId, 'site-a');
  assert.deepEqual(
    opened.map((o) => o.siteId),
    ['site-a', 'site-a', 'site-b', 'site-a'],
  );
  await forwarder.close();
});

test('reset of a PBX started without a controller leaves the link off, whatever was configured since', async () => {
  const store = new PbxStore(new VirtualClock({ start: T0 }), defaultState(T0));
  const forwarder = new AttentionForwarder(store, { channelFactory: () => new FakeChannel() });
  forwarder.configure(SETTINGS);
  assert.equal(forwarder.status().siteId, 'site-a');
  store.reset();
  assert.deepEqual(forwarder.status().link, 'disabled');
  assert.equal(forwarder.status().siteId, null);
  await forwarder.close();
});
