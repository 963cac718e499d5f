import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultFixture } from '../../../../simulators/fleet-controller/index.ts';
import {
  EMBEDDED_PBX_CLOCK_LAG_MS,
  openEmbeddedFleet,
} from '../../../../steps/fleet/support/embedded-fleet.ts';
import { restExchange } from '../../../../steps/fleet/support/fleet-rest.ts';
import { deliveredInTime } from '../../../../steps/fleet/support/pbx-events.ts';

test('the embedded fleet starts a PBX per site on first use, connected to the controller', async () => {
  const fleet = await openEmbeddedFleet();
  try {
    const plane = await fleet.pbx('site-hamburg');
    assert.ok(plane);
    assert.equal(await fleet.pbx('site-hamburg'), plane, 'one PBX per site');
    assert.equal((await plane.control.forwarderStatus()).link, 'up');
    const controllerNow = (await fleet.control?.now())?.now;
    assert.ok(
      controllerNow !== undefined &&
        (await plane.control.now()).now < controllerNow - EMBEDDED_PBX_CLOCK_LAG_MS / 2,
    );

    assert.equal(
      (await plane.control.raiseAttentionEvent({ module: 'M', subject: 'Probe', severity: 'INFO' })).outcome,
      'sent',
    );
    assert.ok(await deliveredInTime(plane.control));
    const { email, password } = fleet.accounts.partner;
    const res = await restExchange({
      method: 'GET',
      url: `${fleet.apiUrl}/api/v1/sites`,
      auth: { kind: 'basic', email, password },
      who: 'partner',
    });
    const sites = res.json as { id: string; attentionEvents?: { subject: string }[] }[];
    assert.deepEqual(
      sites.find((s) => s.id === 'site-hamburg')?.attentionEvents?.map((i) => i.subject),
      ['Probe'],
    );
  } finally {
    await fleet.close();
  }
});

test('the embedded readOnlyAccount token is a read-and-write token of a non-Viewer account whose level is read', async () => {
  const fleet = await openEmbeddedFleet();
  try {
    const secret = await fleet.mcpToken('readOnlyAccount');
    const fixture = defaultFixture();
    const token = fixture.tokens.find((t) => t.secret === secret);
    assert.equal(token?.level, 'read-write');
    const account = fixture.accounts.find((a) => a.id === token?.accountId);
    assert.equal(account?.level, 'read');
    assert.notEqual(account?.role, 'Viewer');
    assert.equal(account?.partnerId, fleet.accounts.partner.partnerId);
  } finally {
    await fleet.close();
  }
});
