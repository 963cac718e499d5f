import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoFixture } from '../../../../simulators/fleet/demo-fixture.ts';
import { defaultFixture } from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { fleetCore } from '../fleet-test-kit.ts';

test('EVENT-REPEAT-MERGED at fleet scale: a controller of 12,000 PBXs remembers the stream position of every one of them', async () => {
  const count = 12_000;
  const { state } = await fleetCore(demoFixture(defaultFixture(), count, (siteId) => `key-${siteId}`));
  const stream = (n: number) => `site-demo-${n}\u0000stream-${n}`;
  for (let n = 5; n <= count; n++) assert.equal(state.ingest.acceptSequence(stream(n), 1), true);
  // The first PBX reconnects and re-sends its event: the controller still knows it had it.
  assert.equal(state.ingest.lastSequence(stream(5)), 1, 'the oldest stream is not forgotten');
  assert.equal(state.ingest.acceptSequence(stream(5), 1), false, 'a re-sent event counts once');
});
