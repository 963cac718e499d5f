import { memoryKey } from './scenario-memory.ts';

/** Keys of the scenario memory that steps of two areas share (the rest sit beside their steps). */

/** The accounts total the operator changed the state to (steps/common → steps/monitoring). */
export const CHANGED_ACCOUNTS_TOTAL = memoryKey<number>('changedAccountsTotal');

/** A backup target the operator configured, as the agent text must show it. */
export interface BackupTarget {
  location: string;
  time: number;
  message: string;
  result: string;
}

export const BACKUP_TARGETS = memoryKey<BackupTarget[]>('backupTargets');
