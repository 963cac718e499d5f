import type { PbxWorld } from '../../support/world.ts';
import { FleetContext } from './fleet-context.ts';
import { FleetNotVerifiable } from './fleet-not-verifiable.ts';

/** The scenario's fleet context, created on first use (closed by steps/fleet/hooks.ts). */
export function fleetContextOf(world: PbxWorld): FleetContext {
  world.fleet ??= new FleetContext(world);
  return world.fleet;
}

type StepBody<A extends unknown[]> = (this: PbxWorld, fleet: FleetContext, ...args: A) => unknown;
// biome-ignore lint/suspicious/noExplicitAny: Cucumber's step functions take their arguments untyped.
type StepFunction = (this: PbxWorld, ...args: any[]) => Promise<unknown>;

/**
 * Wraps a fleet step: opens the scenario's fleet target, passes its context as the first argument
 * and turns a `FleetNotVerifiable` (a missing fixture or control plane) into
 * `world.notVerifiable(reason)`. The returned function keeps the step's arity, which Cucumber checks
 * against the expression's parameters (and a data table or doc string).
 */
export function fleetStep<A extends unknown[]>(body: StepBody<A>): StepFunction {
  async function run(world: PbxWorld, args: unknown[]): Promise<unknown> {
    try {
      const fleet = await fleetContextOf(world).ready();
      return await body.call(world, fleet, ...(args as A));
    } catch (error) {
      if (error instanceof FleetNotVerifiable) return world.notVerifiable(error.message);
      throw error;
    }
  }
  switch (Math.max(0, body.length - 1)) {
    case 0:
      return async function (this: PbxWorld) {
        return run(this, []);
      };
    case 1:
      return async function (this: PbxWorld, a: unknown) {
        return run(this, [a]);
      };
    case 2:
      return async function (this: PbxWorld, a: unknown, b: unknown) {
        return run(this, [a, b]);
      };
    case 3:
      return async function (this: PbxWorld, a: unknown, b: unknown, c: unknown) {
        return run(this, [a, b, c]);
      };
    case 4:
      return async function (this: PbxWorld, a: unknown, b: unknown, c: unknown, d: unknown) {
        return run(this, [a, b, c, d]);
      };
    case 5:
      return async function (this: PbxWorld, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) {
        return run(this, [a, b, c, d, e]);
      };
    case 6:
      return async function (
        this: PbxWorld,
        a: unknown,
        b: unknown,
        c: unknown,
        d: unknown,
        e: unknown,
        f: unknown,
      ) {
        return run(this, [a, b, c, d, e, f]);
      };
    default:
      throw new Error(`fleetStep supports up to 6 step arguments, got ${body.length - 1}`);
  }
}
