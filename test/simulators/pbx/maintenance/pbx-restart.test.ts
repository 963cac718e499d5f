import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { beginRestart, finishRestart } from '../../../../simulators/pbx/maintenance/pbx-restart.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { isPbxRestarting } from '../../../../simulators/pbx/state/pbx-restarting.ts';

test('isPbxRestarting holds from the restart until its end, then never again', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 10 ** 7 }),
      fc.integer({ min: 0, max: 2 * 10 ** 7 }),
      (duration, later) => {
        const state = defaultState(0);
        state.maintenance.restartDurationMs = duration;
        const until = beginRestart(state, 1000);
        assert.equal(until, 1000 + duration);
        assert.equal(isPbxRestarting(state, 1000 + later), later < duration);
        assert.equal(finishRestart(state, 1000 + later), later >= duration);
      },
    ),
  );
  assert.equal(isPbxRestarting(defaultState(0), 0), false);
});

test('a broken restart duration falls back to 60 s', () => {
  const state = defaultState(0);
  state.maintenance.restartDurationMs = Number.NaN;
  assert.equal(beginRestart(state, 0), 60_000);
});
