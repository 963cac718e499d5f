import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { PbxState } from '../state/types.ts';

type Backup = PbxState['backups'][number];
type Run = Backup['runs'][number];

/**
 * The most recent run of a backup target and its most recent successful one (the first of equal
 * times in the target's order), found in one pass without copying or sorting the runs.
 */
function latestRuns(backup: Backup): { last: Run | undefined; success: Run | undefined } {
  let last: Run | undefined;
  let success: Run | undefined;
  for (const run of backup.runs) {
    if (!last || run.time > last.time) last = run;
    if (run.result.endsWith('.successful') && (!success || run.time > success.time)) success = run;
  }
  return { last, success };
}

const targetOf = (b: Backup) => (b.location === '' ? b.type : `${b.type} ${b.location}`);
const worstOf = (m: PbxState['modules'][number]) => {
  let worst = 0;
  for (const instance of m.instances) if (instance.status > worst) worst = instance.status;
  return worst;
};

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
      const { last, success } = latestRuns(b);
      return {
        target: targetOf(b),
        lastRun: last ? { time: last.time, result: last.result } : null,
        lastSuccessAt: success ? success.time : null,
      };
    }),
    modules: state.modules.map((m) => ({ name: m.name, id: m.id, worstStatus: worstOf(m) })),
  };
}

/**
 * A text equal for two states exactly when their `pbxInventory` is equal apart from `at`: the
 * same values in a flat list, without building the inventory (issue 31 §4: a PBX looks at it
 * after every change of its state, and most changes — phones, calls, RAM — leave it as it was).
 */
export function inventoryKey(state: Readonly<PbxState>): string {
  const flat: (string | number | boolean | null)[] = [
    state.appliance.pbxVersion,
    state.update.kind,
    state.sipProviders.length,
  ];
  for (const p of state.sipProviders) flat.push(p.uri, p.registered);
  flat.push(state.backups.length);
  for (const b of state.backups) {
    const { last, success } = latestRuns(b);
    flat.push(targetOf(b), last ? last.time : null, last ? last.result : null, success ? success.time : null);
  }
  flat.push(state.modules.length);
  for (const m of state.modules) flat.push(m.name, m.id, worstOf(m));
  return JSON.stringify(flat);
}
