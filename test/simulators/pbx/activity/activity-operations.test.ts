import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import { httpPbxControl, start } from '../../../../simulators/pbx/index.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';

const refusedWith = (pattern: RegExp) => (e: unknown) =>
  e instanceof ControlError && e.status === 400 && e.code === 'invalid_request' && pattern.test(e.message);

test('the field-activity switch starts from a seed, reports its status, stops, and refuses bad input', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const control = httpPbxControl(pbx.urls.control);
  assert.equal((await control.activityStatus()).on, false);

  await control.activityStart({ seed: 'kiel', eventsPerHour: 2.5, stormSize: 10.4 });
  const running = await control.activityStatus();
  assert.deepEqual(
    [running.on, running.seed, running.eventsPerHour, running.stormSize],
    [true, 'kiel', 2.5, 10],
  );

  await assert.rejects(control.activityStart({ seed: '' }), refusedWith(/seed must be a non-empty string/));
  await assert.rejects(
    control.activityStart({ seed: 'x', stormsPerDay: 1441 }),
    refusedWith(/stormsPerDay must be a number from 0 to 1440, got 1441/),
  );
  // The client sends only declared fields; the server refuses any other.
  const raw = await request(`${pbx.urls.control}/activity`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seed: 'x', colour: 'red' }),
  });
  assert.equal(raw.statusCode, 400);
  assert.match(((await raw.body.json()) as { message: string }).message, /unknown field "colour"/);
  assert.equal(
    (await control.activityStatus()).seed,
    'kiel',
    'a refused start leaves the activity as it was',
  );

  await control.activityStop();
  assert.equal((await pbx.control.activityStatus()).on, false);
});
