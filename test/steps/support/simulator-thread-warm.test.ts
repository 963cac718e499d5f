import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publishSelectedScenarios } from '../../../src/runner/selected-scenarios.ts';

/**
 * Issue 31 §1: against the embedded simulator the runner says so before it loads the support code,
 * and the simulator thread starts loading its modules while the support code loads, not in the
 * first scenario (whose duration is the progress line's longest standstill).
 */
test('the simulator thread starts as the support code of an embedded run loads', async (t) => {
  t.after(() => publishSelectedScenarios({ pickles: [], embedded: false }));
  publishSelectedScenarios({ pickles: [], embedded: true });
  // Loaded here for the first time, as Cucumber loads it with the other step files.
  const { simulatorThread } = await import('../../../steps/support/simulator-thread.ts');
  t.after(() => simulatorThread.close());
  assert.equal(simulatorThread.running, true);
});
