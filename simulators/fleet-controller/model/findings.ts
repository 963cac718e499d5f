import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';

/** The findings keys other than `events`, in the order `attention` lists them (FLEET-SITE-ATTENTION-KEYS). */
export const FINDING_KEYS = [
  'offline',
  'trunks',
  'backupFailed',
  'backupMissing',
  'version',
  'modules',
] as const;
export type FindingKey = (typeof FINDING_KEYS)[number];

/** A backup younger than this counts as present (FLEET-UNSPEC-FINDING-CRITERIA). */
export const BACKUP_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface FindingInputs {
  /** `null` when the site has no PBX registered: reachability is then unknown and never `offline`. */
  reachable: boolean | null;
  /** The last inventory the site's PBX reported, or the one the control plane set. */
  inventory: PbxInventory | null;
}

/**
 * Evaluates the findings of a site from inventory and reachability (FLEET-FINDINGS-SELF-CLEARING:
 * they are recomputed whenever either changes, so they vanish as soon as the cause is gone;
 * FLEET-FINDINGS-NOT-ACKNOWLEDGEABLE: they have no item and nothing acknowledges them).
 *
 * FLEET-UNSPEC-FINDING-CRITERIA, the simulator's criteria:
 * - `offline`: a PBX is registered for the site and none is connected over the ingest link
 *   (never connected, disconnected, or the link cut by the control plane);
 * - `trunks`: a SIP provider is not registered;
 * - `backupFailed`: the most recent run of a backup target did not end with a result key ending in
 *   `.successful`;
 * - `backupMissing`: no backup target, or no target with a successful run in the 7 days before the
 *   inventory's time (PBX clock);
 * - `version`: the PBX reports an available update (`updateKind` other than `none`);
 * - `modules`: a module instance has status warning or critical.
 * The last known inventory stays in force while the site is offline.
 * Pure in its inputs: no controller clock (backup age counts in the inventory's own time), so a
 * site list rendered earlier stays exact until inventory or reachability change.
 */
export function evaluateFindings({ reachable, inventory }: FindingInputs): FindingKey[] {
  const found = new Set<FindingKey>();
  if (reachable === false) found.add('offline');
  if (inventory) {
    if (inventory.sipProviders.some((p) => !p.registered)) found.add('trunks');
    if (inventory.backups.some((b) => b.lastRun !== null && !isSuccessful(b.lastRun.result)))
      found.add('backupFailed');
    const lastSuccess = Math.max(-Infinity, ...inventory.backups.map((b) => b.lastSuccessAt ?? -Infinity));
    if (inventory.at - lastSuccess > BACKUP_MAX_AGE_MS) found.add('backupMissing');
    if (inventory.updateKind !== 'none') found.add('version');
    if (inventory.modules.some((m) => m.worstStatus > 0)) found.add('modules');
  }
  return FINDING_KEYS.filter((k) => found.has(k));
}

function isSuccessful(result: string): boolean {
  return result.endsWith('.successful');
}
