import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpFleetControl, start as startFleet } from '../../../simulators/fleet-controller/index.ts';
import { httpPbxControl, start as startPbx } from '../../../simulators/pbx/index.ts';
import { ControlError } from '../../../simulators/shared/control/control-error.ts';
import {
  ControlTokenCheck,
  ControlTokenRequiredError,
  controlTokenCheckFor,
  isLoopbackHost,
} from '../../../simulators/shared/control-token.ts';

// Issue 12, defect 7: the control planes followed --host onto every interface, without a token.

test('control token: loopback addresses and the refusal beyond loopback without a token', () => {
  for (const host of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
    assert.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '::', '192.0.2.1', '10.0.0.1', '::ffff:10.0.0.1', 'example.org'])
    assert.ok(!isLoopbackHost(host), host);
  assert.equal(controlTokenCheckFor('127.0.0.1', undefined), null);
  assert.throws(() => controlTokenCheckFor('0.0.0.0', undefined), ControlTokenRequiredError);
  const check = controlTokenCheckFor('0.0.0.0', 's3cret-token');
  assert.ok(check instanceof ControlTokenCheck);
  assert.ok(check.allows('Bearer s3cret-token'));
  for (const header of [
    undefined,
    '',
    'Bearer',
    'Bearer s3cret-tokenX',
    'Basic s3cret-token',
    's3cret-token',
  ])
    assert.ok(!check.allows(header), String(header));
});

test('PBX start: the control plane stays on loopback whatever host the faces bind', async () => {
  const pbx = await startPbx({ host: '127.0.0.3', monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    assert.match(pbx.urls.web, /^http:\/\/127\.0\.0\.3:/);
    assert.match(pbx.urls.control, /^http:\/\/127\.0\.0\.1:/);
  } finally {
    await pbx.close();
  }
  await assert.rejects(
    startPbx({ host: '127.0.0.1', controlHost: '0.0.0.0', monitoringPort: 0 }),
    ControlTokenRequiredError,
  );
});

test('PBX and fleet control planes with a token refuse calls without it; the clients send it', async () => {
  const token = 'pbx-control-token-for-tests';
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' }, controlToken: token });
  const fleet = await startFleet({
    controlToken: token,
    fixture: {
      ...(await import('../../../simulators/fleet-controller/index.ts')).emptyFixture(),
    },
  });
  try {
    await assert.rejects(
      httpPbxControl(pbx.urls.control).getState(),
      (e: unknown) => e instanceof ControlError && e.status === 401,
    );
    assert.equal(
      (await httpPbxControl(pbx.urls.control, { token }).getState()).monitoring.instanceName,
      'Monitoring',
    );
    const raw = await fetch(`${pbx.urls.control}/state`, { headers: { authorization: 'Bearer wrong' } });
    assert.equal(raw.status, 401);
    assert.ok(!(await raw.text()).includes(token));
    await assert.rejects(
      httpFleetControl(fleet.urls.control).stats(),
      (e: unknown) => e instanceof ControlError && e.status === 401,
    );
    assert.ok(await httpFleetControl(fleet.urls.control, { token }).stats());
  } finally {
    await fleet.close();
    await pbx.close();
  }
});
