import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateFindings } from '../../../../simulators/fleet-controller/index.ts';
import { httpPbxControl, pbxInventory, pbxNow, pbxState, start } from '../../../../simulators/pbx/index.ts';
import { FINDING_CAUSES } from '../../../../steps/fleet/support/finding-causes.ts';
import type { PbxPlane } from '../../../../steps/fleet/support/fleet-target.ts';

/** The findings the simulated controller would evaluate from the PBX's inventory now. */
function findings(handle: Awaited<ReturnType<typeof start>>): string[] {
  const inventory = pbxInventory(pbxState(handle), pbxNow(handle));
  return evaluateFindings({ reachable: true, inventory });
}

for (const [cause, make] of Object.entries(FINDING_CAUSES)) {
  if (cause === 'its link to the controller cut') continue;
  test(`FLEET-FINDINGS-SELF-CLEARING: "${cause}" gives a finding and its undo takes it away again`, async () => {
    const handle = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
    try {
      const plane: PbxPlane = {
        siteId: 's',
        control: httpPbxControl(handle.urls.control),
      };
      assert.deepEqual(findings(handle), [], 'the healthy PBX has no finding');
      const before = await plane.control.getState();
      const undo = await make(plane);
      assert.equal(findings(handle).length, 1, `"${cause}" gives exactly one finding: ${findings(handle)}`);
      await undo();
      assert.deepEqual(findings(handle), []);
      const after = await plane.control.getState();
      assert.deepEqual(
        { ...after, system: undefined, monitoring: undefined },
        { ...before, system: undefined, monitoring: undefined },
        'the undo restores the state',
      );
    } finally {
      await handle.close();
    }
  });
}
