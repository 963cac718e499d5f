/** ETag and If-None-Match on the site list (features/fleet/etag.feature). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { API_BASE, type FleetContext } from './support/fleet-context.ts';
import type { FleetResponse } from './support/fleet-rest.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { FleetRole } from './support/fleet-target.ts';

/** A conditional GET of the site list with `etag` in If-None-Match. */
function conditional(
  fleet: FleetContext,
  caller: FleetRole,
  etag: string,
  evidence = true,
): Promise<FleetResponse> {
  return fleet.rest('GET', `${API_BASE}/sites`, caller, { headers: { 'If-None-Match': etag }, evidence });
}

When(
  '{fleetCaller} requests the site list again with the last ETag in If-None-Match',
  fleetStep(async (fleet, caller: FleetRole) => {
    const etag = fleet.kept.get(`etag:${caller}`);
    assert.equal(typeof etag, 'string', `the earlier site list of ${caller} carried no ETag`);
    fleet.kept.set('sentEtag', etag);
    await conditional(fleet, caller, etag as string);
  }),
);

Then(
  'the controller answers 304 without content',
  fleetStep(async (fleet) => {
    const res = fleet.last;
    assert.ok(res, 'no request was sent');
    assert.equal(res.status, 304, `answered ${res.status}`);
    assert.equal(res.bytes.length, 0, `the 304 answer has ${res.bytes.length} bytes of content`);
  }),
);

Then(
  'the controller answers 200 with an ETag other than the last one',
  fleetStep(async (fleet) => {
    const res = fleet.last;
    assert.ok(res, 'no request was sent');
    assert.equal(res.status, 200, `answered ${res.status}`);
    const etag = res.headers['etag'];
    assert.ok(etag, 'the answer has no ETag');
    assert.notEqual(etag, fleet.kept.get('sentEtag'), 'the ETag did not change');
  }),
);

type Change = 'new message' | 'acknowledgement' | 'pause';

Then(
  'over generated sequences of new messages, acknowledgements and pauses the ETag changes after every message and acknowledgement and stays otherwise \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    let run = 0;
    const change = fc.constantFrom<Change>('new message', 'acknowledgement', 'pause');
    await assertLiveProperty(
      this,
      'the ETag changes exactly with new messages and acknowledgements',
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        run++;
        const first = await fleet.rest('GET', `${API_BASE}/sites`, 'partner', { evidence: false });
        assert.equal(first.status, 200);
        let etag = first.headers['etag'];
        assert.ok(etag, 'the site list carries no ETag');
        for (const [i, step] of changes.entries()) {
          let changed = step !== 'pause';
          if (step === 'new message') {
            const module = fleet.moduleName(`ETag ${run}.${i}`);
            await fleet.raise(`etag ${run}.${i}`, siteId, {
              module,
              subject: 'Neue Meldung',
              severity: 'WARNING',
            });
          } else if (step === 'acknowledgement') {
            const open = await fleet.openItems('partner', siteId, { evidence: false });
            const item = open[0];
            if (item) {
              const res = await fleet.acknowledge('partner', siteId, item.id, '{}', { evidence: false });
              assert.equal(res.status, 200, `acknowledging ${item.id} answered ${res.status}`);
            } else {
              changed = false;
            }
          }
          const res = await conditional(fleet, 'partner', etag, false);
          if (changed) {
            assert.equal(res.status, 200, `after a ${step} the conditional request answered ${res.status}`);
            assert.ok(res.headers['etag'] && res.headers['etag'] !== etag, `the ETag stayed after a ${step}`);
            etag = res.headers['etag'];
          } else {
            assert.equal(res.status, 304, `without a change the conditional request answered ${res.status}`);
          }
        }
      }),
      runs,
    );
  }),
);
