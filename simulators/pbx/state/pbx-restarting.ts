import type { PbxState } from './types.ts';

/**
 * Whether the PBX is restarting at `now` (virtual clock) after a `RestartPbx`: the data endpoint
 * and the web faces are unavailable while this is true. A pure function of the state, so it
 * holds even before the clock's end-of-restart timer has fired; every face reads it here.
 */
export function isPbxRestarting(state: Readonly<PbxState>, now: number): boolean {
  return now < state.maintenance.restartingUntil;
}
