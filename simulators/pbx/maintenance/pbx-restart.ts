import type { PbxState } from '../state/types.ts';
import { hangupAllCalls } from './maintenance-actions.ts';

/** Restart time when `maintenance.restartDurationMs` is not a finite, non-negative number. */
export const DEFAULT_RESTART_DURATION_MS = 60_000;

/** Starts a restart: calls drop at once; returns when it ends (virtual epoch ms). */
export function beginRestart(state: PbxState, now: number): number {
  const configured = state.maintenance.restartDurationMs;
  const duration = Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_RESTART_DURATION_MS;
  hangupAllCalls(state);
  state.maintenance.restartingUntil = now + duration;
  return state.maintenance.restartingUntil;
}

/**
 * Ends a restart whose time is over: the appliance and the telephony engine come back with a
 * fresh uptime. Returns false (and changes nothing) when no restart is due, e.g. because a later
 * `RestartPbx` extended it or the state was reset.
 */
export function finishRestart(state: PbxState, now: number): boolean {
  const until = state.maintenance.restartingUntil;
  if (until === 0 || now < until) return false;
  state.maintenance.restartingUntil = 0;
  state.appliance.uptimeLinuxMs = 0;
  state.appliance.engineUptime = '0 days, 0 hours, 0 minutes';
  return true;
}
