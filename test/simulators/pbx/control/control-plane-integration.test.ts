import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { start } from '../../../../simulators/pbx/index.ts';
import { httpPbxControl } from '../../../../simulators/pbx/pbx-control.ts';

/** Whether a TCP connection to the port is accepted (the endpoint is listening) or refused. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('switching the tile over HTTP stops and restarts the data endpoint', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { start: 1_750_000_000_000 } });
  t.after(() => pbx.close());
  const control = httpPbxControl(pbx.urls.control);
  const before = await control.endpointStatus();
  assert.equal(before.state, 'listening');
  assert.ok(before.port !== null && (await connects(before.host, before.port)));
  assert.deepEqual(
    before.firewallOpenFor,
    ['127.0.0.1/32'],
    'the default list opens the firewall for the harness',
  );

  await control.setTile({ on: false });
  assert.deepEqual(await control.endpointStatus(), {
    ...before,
    state: 'stopped',
    port: null,
    firewallOpenFor: [],
  });
  assert.equal(pbx.urls.monitoring, null);
  assert.equal(await connects(before.host, before.port), false);

  await control.setTile({ on: true });
  const after = await control.endpointStatus();
  assert.equal(after.state, 'listening');
  assert.deepEqual(after.firewallOpenFor, before.firewallOpenFor);
  assert.ok(after.port !== null && (await connects(after.host, after.port)));
  assert.ok(
    (await control.moduleLog()).some((e) => e.source === 'control' && /tile switched off/.test(e.message)),
  );
});

test('a scenario loaded over HTTP keeps the endpoint where tests connect; reset brings back the start', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { start: 1_750_000_000_000 } });
  t.after(() => pbx.close());
  const control = httpPbxControl(pbx.urls.control);
  const before = await control.endpointStatus();
  await control.loadScenario({ name: 'all-phones-offline' });
  assert.deepEqual(await control.endpointStatus(), before);
  await control.loadScenario({ name: 'unlicensed' });
  assert.equal((await control.getState()).licence.valid, false);
  assert.equal((await control.endpointStatus()).state, 'stopped');
  await control.reset();
  const after = await control.endpointStatus();
  assert.equal(after.state, 'listening');
  assert.equal(after.configuredPort, before.configuredPort);
  assert.equal((await control.getState()).licence.valid, true);
});

test('a monitoring-hosts list without an active entry closes the port', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { start: 1_750_000_000_000 } });
  t.after(() => pbx.close());
  const control = httpPbxControl(pbx.urls.control);
  await control.setMonitoringHosts([{ entry: '127.0.0.0/8', active: false }]);
  assert.equal((await control.endpointStatus()).state, 'stopped');
  await control.setMonitoringHosts([{ entry: '127.0.0.0/8', active: true }]);
  assert.equal((await control.endpointStatus()).state, 'listening');
});

test('MON-STATE-FIREWALL: while listening the firewall is open for exactly the active entries, host bits cleared', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { start: 1_750_000_000_000 } });
  t.after(() => pbx.close());
  const control = httpPbxControl(pbx.urls.control);
  await control.patchState({
    monitoring: {
      hosts: [
        { entry: '127.0.0.1', active: true },
        { entry: '10.1.2.3/24', active: true },
        { entry: '192.0.2.7', active: false },
      ],
    },
  });
  assert.deepEqual((await control.endpointStatus()).firewallOpenFor, ['127.0.0.1/32', '10.1.2.0/24']);
  await control.setLicence({ valid: false });
  assert.deepEqual((await control.endpointStatus()).firewallOpenFor, []);
});
