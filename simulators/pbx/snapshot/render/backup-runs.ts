import type { BackupRun, BackupState } from '../../state/types.ts';

/**
 * The most recent run of a backup target: the greatest `time`; among equal times the one listed
 * last. `undefined` when the target has never run.
 */
export function latestRun(runs: readonly BackupRun[]): BackupRun | undefined {
  let latest: BackupRun | undefined;
  for (const run of runs) if (!latest || run.time >= latest.time) latest = run;
  return latest;
}

/** Runs oldest first; equal times keep their listed order (the agent-text section order). */
export function runsOldestFirst(runs: readonly BackupRun[]): BackupRun[] {
  return runs
    .map((run, index) => ({ run, index }))
    .sort((a, b) => a.run.time - b.run.time || a.index - b.index)
    .map(({ run }) => run);
}

/** A run is good when its result key ends with `successful` (test-vectors.md, backups). */
export function runSucceeded(run: BackupRun): boolean {
  return run.result.endsWith('successful');
}

/**
 * The human name of a backup target, used in `PBX Backup <target>` and in the `local` document:
 * the storage type, then the location when there is one, e.g. `SMB 192.0.2.6:/Backup`.
 */
export function backupTargetName(backup: Pick<BackupState, 'type' | 'location'>): string {
  return backup.location === '' ? backup.type : `${backup.type} ${backup.location}`;
}
