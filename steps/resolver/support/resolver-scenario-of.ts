import type { PbxWorld } from '../../support/world.ts';
import { ResolverScenario } from './resolver-scenario.ts';

/** The scenario's resolver side, made on first use. */
export function resolverScenario(world: PbxWorld): ResolverScenario {
  world.resolver ??= new ResolverScenario(world);
  return world.resolver;
}
