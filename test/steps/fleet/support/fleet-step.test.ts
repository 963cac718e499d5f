import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetContext } from '../../../../steps/fleet/support/fleet-context.ts';
import { notVerifiable } from '../../../../steps/fleet/support/fleet-not-verifiable.ts';
import { fleetStep } from '../../../../steps/fleet/support/fleet-step.ts';
import type { PbxWorld } from '../../../../steps/support/world.ts';

/** A world whose fleet context is already open, recording what `notVerifiable` receives. */
function fakeWorld() {
  const reasons: string[] = [];
  const context = { ready: async () => context } as unknown as FleetContext;
  const world = {
    fleet: context,
    notVerifiable(reason: string) {
      reasons.push(reason);
      return 'skipped' as const;
    },
  } as unknown as PbxWorld;
  return { world, context, reasons };
}

test('fleetStep keeps the arity Cucumber checks: the step arguments without the context', () => {
  assert.equal(fleetStep(async (_f) => {}).length, 0);
  assert.equal(fleetStep(async (_f, _a: string) => {}).length, 1);
  assert.equal(fleetStep(async (_f, _a: string, _b: number, _c: string) => {}).length, 3);
  assert.equal(fleetStep(async (_f, _a: 1, _b: 2, _c: 3, _d: 4, _e: 5, _g: 6) => {}).length, 6);
});

test('fleetStep passes the context and the arguments to the step', async () => {
  const { world, context } = fakeWorld();
  const seen: unknown[] = [];
  const step = fleetStep(async (fleet, a: string, b: number) => {
    seen.push(fleet, a, b);
  });
  await step.call(world, 'x', 2);
  assert.deepEqual(seen, [context, 'x', 2]);
});

test('fleetStep reports a missing fixture or control plane as not verifiable, never as a failure', async () => {
  const { world, reasons } = fakeWorld();
  const step = fleetStep(async () => notVerifiable('no control plane'));
  assert.equal(await step.call(world), 'skipped');
  assert.deepEqual(reasons, ['no control plane']);
});

test('fleetStep lets assertion failures through', async () => {
  const { world } = fakeWorld();
  const step = fleetStep(async () => assert.fail('wrong'));
  await assert.rejects(step.call(world), /wrong/);
});
