import type { SearchLogEntry } from './resolver-control.ts';

/**
 * A timeout warning of the search log (RESOLVER-TIMEOUT-WARNING): a line of the control plane's
 * `timeout` step above level `info`. Its wording is open (RESOLVER-UNSPEC-LOG-TEXTS).
 */
export function isTimeoutWarning(line: SearchLogEntry): boolean {
  return line.step === 'timeout' && line.level !== 'info';
}
