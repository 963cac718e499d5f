import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EMBEDDED_PBX_CLOCK_LAG_MS,
  openEmbeddedFleet,
} from '../../../../steps/fleet/support/embedded-fleet.ts';
import { restExchange } from '../../../../steps/fleet/support/fleet-rest.ts';

test('the embedded fleet starts a PBX per site on first use, connected to the controller', async () => {
  const fleet = await openEmbeddedFleet();
  try {
    const plane = await fleet.pbx('site-hamburg');
    assert.ok(plane);
    assert.equal(await fleet.pbx('site-hamburg'), plane, 'one PBX per site');
    assert.equal((await plane.events.status()).link, 'up');
    const controllerNow = await fleet.control?.now();
    assert.ok(
      controllerNow !== undefined &&
        (await plane.control.now()) < controllerNow - EMBEDDED_PBX_CLOCK_LAG_MS / 2,
    );

    assert.equal(await plane.events.raise({ module: 'M', subject: 'Probe', severity: 'INFO' }), 'sent');
    assert.ok(await plane.events.waitDelivered());
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

test('the embedded fleet makes a read-and-write token of a read-only account once', async () => {
  const fleet = await openEmbeddedFleet();
  try {
    const token = await fleet.mcpToken('readOnlyAccount');
    assert.ok(token && token.length >= 32);
    assert.equal(await fleet.mcpToken('readOnlyAccount'), token);
    assert.equal(await fleet.mcpToken('readWrite'), 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ');
  } finally {
    await fleet.close();
  }
});
