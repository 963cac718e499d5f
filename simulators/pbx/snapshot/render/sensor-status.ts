import type {
  BackupState,
  LicenceUsage,
  OsState,
  SipProviderState,
  SipState,
  UpdateKind,
} from '../../state/types.ts';
import { latestRun, runSucceeded } from './backup-runs.ts';

/** Status of a sensor or local check: 0 OK, 1 warning, 2 critical (XMLRPC-LOCAL-ENTRY). */
export type SensorStatus = 0 | 1 | 2;

/**
 * RAM use in percent, (MemTotal - MemAvailable) / MemTotal * 100 (XMLRPC-DISK-IS-RAM), or `-1`
 * when it cannot be determined (total not positive, available negative or above total).
 * The product is formed before the division so whole percentages come out exact.
 */
export function ramUsePercent(os: Pick<OsState, 'memTotalBytes' | 'memAvailableBytes'>): number {
  const total = os.memTotalBytes;
  const available = os.memAvailableBytes;
  if (!Number.isFinite(total) || !Number.isFinite(available)) return -1;
  if (total <= 0 || available < 0 || available > total) return -1;
  return ((total - available) * 100) / total;
}

/**
 * XMLRPC-DISK-THRESHOLDS: 0 below 70 %, 1 from 70 %, 2 from 90 % (both boundaries inclusive, the
 * earlier component's ≥ 70 / ≥ 90 in test-vectors.md). An unknown value (`-1`) is below 70 and
 * so 0, as the rule reads (XMLRPC-UNSPEC-ENTRY-VALUES).
 */
export function ramStatus(percent: number): SensorStatus {
  if (percent >= 90) return 2;
  if (percent >= 70) return 1;
  return 0;
}

/** XMLRPC-UPDATE-MAJOR, XMLRPC-UPDATE-MINOR: major 2, minor 1, no update 0 (XMLRPC-UNSPEC-ENTRY-VALUES). */
export function updateStatus(kind: UpdateKind): SensorStatus {
  if (kind === 'major') return 2;
  if (kind === 'minor') return 1;
  return 0;
}

/**
 * XMLRPC-PHONE-STATUS: 2 when all known phones are offline, otherwise 0. With no known phones (or
 * counts that cannot be determined, `-1`) nothing is known to be offline, so 0
 * (XMLRPC-UNSPEC-ENTRY-VALUES).
 */
export function phoneStatus(sip: Pick<SipState, 'knownPhones' | 'onlinePhones'>): 0 | 2 {
  return sip.knownPhones > 0 && sip.onlinePhones === 0 ? 2 : 0;
}

/**
 * How an error text in a backup status message is recognised (XMLRPC-BACKUP-ERROR-TEXT,
 * XMLRPC-UNSPEC-ENTRY-VALUES): the words error, fail (failed, failure) or the German `fehler`,
 * in any case. A message such as "completed without errors" also matches: the rule errs on the
 * side of an alarm.
 */
export const BACKUP_ERROR_TEXT = /error|fail|fehler/i;

/**
 * Status of a backup target (XMLRPC-BACKUP-FAILED, XMLRPC-BACKUP-ERROR-TEXT): 2 when the most
 * recent run's result key does not end with `successful` or the message contains an error text;
 * 1 when the target has never run (and the message is clean); otherwise 0.
 */
export function backupStatus(backup: Pick<BackupState, 'runs' | 'message'>): SensorStatus {
  if (BACKUP_ERROR_TEXT.test(backup.message)) return 2;
  const latest = latestRun(backup.runs);
  if (!latest) return 1;
  return runSucceeded(latest) ? 0 : 2;
}

/** XMLRPC-PROVIDER-STATUS: 0 when the trunk is registered, 2 when not. */
export function providerStatus(provider: Pick<SipProviderState, 'registered'>): 0 | 2 {
  return provider.registered ? 0 : 2;
}

/** Fax queue thresholds of the earlier component: warning from 5, critical from 10 queued faxes. */
export const FAX_QUEUE_LEVELS = { warn: 5, crit: 10 } as const;

/** `PBX Fax Queue`: 0 below 5, 1 from 5, 2 from 10 queued faxes; 1 when unknown (`-1`). */
export function faxQueueStatus(queued: number): SensorStatus {
  if (!Number.isFinite(queued) || queued < 0) return 1;
  if (queued >= FAX_QUEUE_LEVELS.crit) return 2;
  if (queued >= FAX_QUEUE_LEVELS.warn) return 1;
  return 0;
}

/**
 * `Licensed/Used …` (MON-UNSPEC-LOCAL-DETAILS): 2 when more are used than licensed, 1 when every
 * licence is taken (and at least one exists), 1 when a count is unknown (`-1`), otherwise 0.
 */
export function licenceUsageStatus(usage: LicenceUsage): SensorStatus {
  const { licensed, used } = usage;
  if (!Number.isFinite(licensed) || !Number.isFinite(used) || licensed < 0 || used < 0) return 1;
  if (used > licensed) return 2;
  if (licensed > 0 && used === licensed) return 1;
  return 0;
}

/** Days the update contract warns before it ends. */
export const CONTRACT_WARN_DAYS = 30;

/**
 * `Update contract valid until` (MON-UNSPEC-LOCAL-DETAILS): 2 once the day has passed, 1 within
 * 30 days of it or when the date cannot be read, otherwise 0. `daysLeft` counts whole days from
 * `now` to the end of the given UTC day.
 */
export function contractStatus(
  validUntil: string,
  now: number,
): { status: SensorStatus; daysLeft: number | null } {
  const end = endOfUtcDay(validUntil);
  if (end === null) return { status: 1, daysLeft: null };
  const daysLeft = Math.floor((end - now) / 86_400_000);
  if (end <= now) return { status: 2, daysLeft };
  return { status: daysLeft < CONTRACT_WARN_DAYS ? 1 : 0, daysLeft };
}

function endOfUtcDay(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const start = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const check = new Date(start);
  if (Number.isNaN(start) || check.getUTCDate() !== Number(match[3])) return null;
  return start + 86_400_000;
}
