import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { PbxState } from '../state/types.ts';

/**
 * What the PBX reports about itself to the fleet controller over the ingest link; the controller
 * evaluates the findings `trunks`, `backupFailed`, `backupMissing`, `version` and `modules` from it
 * (FLEET-FINDINGS-SELF-CLEARING, FLEET-UNSPEC-FINDING-CRITERIA). Read from the one PBX state, so a
 * change made through any face (a scenario, `PATCH /state`, a maintenance command) reaches it.
 */
export function pbxInventory(state: Readonly<PbxState>, now: number): PbxInventory {
  return {
    at: now,
    pbxVersion: state.appliance.pbxVersion,
    updateKind: state.update.kind,
    sipProviders: state.sipProviders.map((p) => ({ uri: p.uri, registered: p.registered })),
    backups: state.backups.map((b) => {
      const runs = [...b.runs].sort((x, y) => y.time - x.time);
      const last = runs[0];
      const success = runs.find((r) => r.result.endsWith('.successful'));
      return {
        target: b.location === '' ? b.type : `${b.type} ${b.location}`,
        lastRun: last ? { time: last.time, result: last.result } : null,
        lastSuccessAt: success ? success.time : null,
      };
    }),
    modules: state.modules.map((m) => ({
      name: m.name,
      id: m.id,
      worstStatus: Math.max(0, ...m.instances.map((i) => i.status)),
    })),
  };
}
