import type { PbxControl } from '../../simulators/pbx/index.ts';

/** The state as the control plane shows it. */
export type ControlState = Awaited<ReturnType<PbxControl['getState']>>;

/** A deep-partial state overlay, or a function of the current state that returns one. */
export type StateOverlay = Record<string, unknown> | ((state: ControlState) => Record<string, unknown>);

import type { PbxWorld } from './world.ts';

/**
 * Runs `action` with the target's control plane; on a target without one, reports the step as
 * not verifiable (never failed) and returns `'skipped'` for the step to return.
 */
export async function withControl(
  world: PbxWorld,
  purpose: string,
  action: (control: PbxControl) => Promise<unknown>,
): Promise<'skipped' | undefined> {
  const control = world.control;
  if (!control) return world.notVerifiable(world.noControlReason(purpose));
  await action(control);
  return undefined;
}

/**
 * Applies a state overlay through the control plane and, unless told otherwise, drops the cached
 * snapshot so the next request shows the change (the scenario is about the change, not the cache).
 */
export function changeState(
  world: PbxWorld,
  purpose: string,
  overlay: StateOverlay,
  { invalidate = true } = {},
): Promise<'skipped' | undefined> {
  return withControl(world, purpose, async (control) => {
    const value = typeof overlay === 'function' ? overlay(await control.getState()) : overlay;
    await control.patchState(value);
    if (invalidate) await control.invalidateSnapshot();
  });
}
