import type { PbxWorld } from '../../support/world.ts';
import type { ResolverControl } from './resolver-control.ts';
import type { ResolverScenario } from './resolver-scenario.ts';
import { resolverScenario } from './resolver-scenario-of.ts';

/**
 * Runs `action` with the target's resolver control plane; on a target without one, reports the
 * step as not verifiable (never failed) and returns `'skipped'` for the step to return.
 */
export async function withResolver(
  world: PbxWorld,
  purpose: string,
  action: (control: ResolverControl, scenario: ResolverScenario) => Promise<unknown>,
): Promise<'skipped' | undefined> {
  const scenario = resolverScenario(world);
  const control = scenario.control();
  if (typeof control === 'string') return world.notVerifiable(`${control}; needed to ${purpose}`);
  await action(control, scenario);
  return undefined;
}

/** `withResolver` for steps that change the PBX (they mark the scenario so a later restart is refused). */
export function configureResolver(
  world: PbxWorld,
  purpose: string,
  action: (control: ResolverControl, scenario: ResolverScenario) => Promise<unknown>,
): Promise<'skipped' | undefined> {
  return withResolver(world, purpose, async (control, scenario) => {
    scenario.touchedPbx = true;
    await action(control, scenario);
  });
}
