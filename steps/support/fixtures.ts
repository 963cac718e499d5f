import type { BackupState, SipProviderState } from '../../simulators/pbx/index.ts';

/** A backup target as the control plane's state takes it, with one or more runs. */
export function backupTarget(
  type: string,
  location: string,
  message: string,
  runs: { time: number; result: string }[],
): BackupState {
  return { type, location, message, runs, sizeBytes: 1_073_741_824 };
}

export const BACKUP_SUCCESSFUL = 'de.vendor.backup.successful';
export const BACKUP_FAILED = 'de.vendor.backup.failed';
export const BACKUP_MOUNT_FAILED = 'de.vendor.backup.mountfail';

/** `n` SIP trunks with distinct URIs from the documentation number range. */
export function sipTrunks(registrations: boolean[]): SipProviderState[] {
  return registrations.map((registered, i) => ({
    uri: `sip:+4930555010${i}@trunk${i}.example.net`,
    registered,
  }));
}

/** `n` distinct active channel names. */
export function activeChannels(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `SIP/trunk-example-${(0x1000 + i).toString(16).padStart(8, '0')}`,
  );
}

/** Bytes of RAM that make percentages exact: 100 × 64 MiB. */
export const EXACT_RAM_TOTAL = 100 * 67_108_864;
