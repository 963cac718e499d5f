import * as fc from 'fast-check';
import { assertLiveProperty } from '../../support/bounded-property.ts';
import type { PbxWorld } from '../../support/world.ts';
import type { ResolverControl } from './resolver-control.ts';
import type { ResolverScenario } from './resolver-scenario.ts';
import { withResolver } from './with-resolver.ts';

/**
 * A bounded live property against the target's resolver (steps/support/bounded-property.ts): each
 * run configures the reference endpoint and the provider and resolves once; the seed and, on
 * failure, the counterexample go to the evidence. Not verifiable without a resolver control plane.
 */
export function resolverProperty<T>(
  world: PbxWorld,
  name: string,
  runs: number,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T, control: ResolverControl, scenario: ResolverScenario) => Promise<void>,
): Promise<'skipped' | undefined> {
  return withResolver(world, `run the property "${name}"`, async (control, scenario) => {
    scenario.touchedPbx = true;
    await assertLiveProperty(
      world,
      name,
      fc.asyncProperty(arbitrary, (value) => check(value, control, scenario)),
      runs,
    );
  });
}
