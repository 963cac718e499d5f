/**
 * What a PBX reports about itself over the ingest link, and what the findings
 * `trunks`, `backupFailed`, `backupMissing`, `version` and `modules` are evaluated from
 * (FLEET-FINDINGS-SELF-CLEARING, FLEET-UNSPEC-FINDING-CRITERIA).
 */
export interface PbxInventory {
  /** PBX clock when the inventory was taken, ms since 1970 UTC. */
  at: number;
  pbxVersion: string;
  /** `none`, `minor` or `major` (the PBX's update state). */
  updateKind: string;
  sipProviders: { uri: string; registered: boolean }[];
  /** Per backup target: the most recent run (or `null`) and the time of the last successful one. */
  backups: {
    target: string;
    lastRun: { time: number; result: string } | null;
    lastSuccessAt: number | null;
  }[];
  /** Per module: the worst instance status (0 ok, 1 warning, 2 critical). */
  modules: { name: string; id: string; worstStatus: number }[];
}
