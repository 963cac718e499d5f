import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultFixture } from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { fleetCore } from '../fleet-test-kit.ts';

test('EVENT-REPEAT-MERGED at fleet scale: a controller of 12,000 PBXs remembers the stream position of every one of them', async () => {
  const count = 12_000;
  const base = defaultFixture();
  const sites = Array.from({ length: count - base.sites.length }, (_, i) => ({
    id: `site-demo-${base.sites.length + i + 1}`,
    displayName: `Demo-Standort ${base.sites.length + i + 1}`,
  }));
  const { state } = await fleetCore({
    ...base,
    sites: [...base.sites, ...sites],
    pbxs: [...base.sites, ...sites].map((site) => ({ siteId: site.id, key: `key-${site.id}` })),
  });
  const stream = (n: number) => `site-demo-${n}\u0000stream-${n}`;
  for (let n = 5; n <= count; n++) assert.equal(state.ingest.acceptSequence(stream(n), 1), true);
  // The first PBX reconnects and re-sends its event: the controller still knows it had it.
  assert.equal(state.ingest.lastSequence(stream(5)), 1, 'the oldest stream is not forgotten');
  assert.equal(state.ingest.acceptSequence(stream(5), 1), false, 'a re-sent event counts once');
});
