import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMaintenance } from '../../../../simulators/pbx/maintenance/create-maintenance.ts';
import { SYSTEM_FUNCTIONS_PATH } from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

test('createMaintenance wires one face; reset forgets tokens, queue, events and timers', async () => {
  const clock = new VirtualClock({ start: 0 });
  const store = new PbxStore(clock, defaultState(0));
  const face = createMaintenance(store);
  try {
    const { secret } = await face.effects.createToken({ label: 'x', actor: 'admin' });
    const headers = { authorization: `Bearer ${secret}` };
    assert.equal(
      face.api.handle({ method: 'POST', target: `${SYSTEM_FUNCTIONS_PATH}/DeleteFaxes`, headers }).status,
      200,
    );
    await face.effects.waitIdle(undefined);
    assert.equal((await face.effects.completionEvents({})).length, 1);
    face.api.handle({ method: 'POST', target: `${SYSTEM_FUNCTIONS_PATH}/RestartPbx`, headers });
    await face.executor.idle();
    assert.equal(clock.pendingTimers(), 1);
    face.reset();
    store.reset();
    assert.equal(clock.pendingTimers(), 0);
    assert.deepEqual(await face.effects.completionEvents({}), []);
    assert.equal(face.api.handle({ method: 'GET', target: SYSTEM_FUNCTIONS_PATH, headers }).status, 401);
  } finally {
    face.close();
    clock.dispose();
  }
});
