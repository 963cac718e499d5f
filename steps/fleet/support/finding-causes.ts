import { BACKUP_FAILED, BACKUP_SUCCESSFUL, backupTarget, sipTrunks } from '../../support/fixtures.ts';
import type { PbxPlane } from './fleet-target.ts';

/** Undoes a cause: the PBX returns to how it was before. */
export type UndoCause = () => Promise<void>;

/**
 * Obvious causes of the findings other than `events`, made on a PBX through its control plane
 * (FLEET-FINDINGS-SELF-CLEARING). FLEET-UNSPEC-FINDING-CRITERIA: the controller's criteria are not
 * stated, so each cause is one no sensible criterion can miss, and the scenario asserts only that the
 * key appears with it and leaves once it is undone.
 */
export const FINDING_CAUSES: Record<string, (plane: PbxPlane) => Promise<UndoCause>> = {
  'its link to the controller cut': async (plane) => {
    await plane.control.cutControllerLink();
    return async () => {
      await plane.control.restoreControllerLink();
    };
  },
  'an unregistered SIP trunk': async (plane) => {
    const { sipProviders } = await plane.control.getState();
    const changed = sipProviders.length > 0 ? structuredClone(sipProviders) : sipTrunks([true]);
    const first = changed[0];
    if (first) first.registered = false;
    await plane.control.patchState({ sipProviders: changed });
    return () => plane.control.patchState({ sipProviders });
  },
  'a failed most recent backup run': async (plane) => {
    const { backups } = await plane.control.getState();
    const now = (await plane.control.now()).now;
    const changed =
      backups.length > 0
        ? structuredClone(backups)
        : [backupTarget('HDD', '', 'OK', [{ time: now - 3_600_000, result: BACKUP_SUCCESSFUL }])];
    const latest = Math.max(now, ...changed.flatMap((b) => b.runs.map((r) => r.time + 1)));
    changed[0]?.runs.push({ time: latest, result: BACKUP_FAILED });
    await plane.control.patchState({ backups: changed });
    return () => plane.control.patchState({ backups });
  },
  'no backup target at all': async (plane) => {
    const { backups } = await plane.control.getState();
    await plane.control.patchState({ backups: [] });
    return () => plane.control.patchState({ backups });
  },
  'an available major update': async (plane) => {
    const { update } = await plane.control.getState();
    await plane.control.patchState({ update: { kind: 'major' } });
    return () => plane.control.patchState({ update: { kind: update.kind } });
  },
  'a module instance in critical state': async (plane) => {
    const { modules } = await plane.control.getState();
    const changed = structuredClone(modules);
    const instance = changed[0]?.instances[0];
    if (!instance) throw new Error('the PBX has no module instance to put into critical state');
    instance.status = 2;
    await plane.control.patchState({ modules: changed });
    return () => plane.control.patchState({ modules });
  },
};
