import { httpFleetControl, start as startController } from '../../../simulators/fleet-controller/index.ts';
import { httpPbxControl, start as startPbx } from '../../../simulators/pbx/index.ts';
import type { FleetTarget, PbxPlane } from './fleet-target.ts';
import { deliveredInTime } from './pbx-events.ts';

/**
 * The scrypt cost of the embedded controller's account passwords. Each scenario starts a fresh
 * controller, which hashes every fixture password: at the default cost (N = 16384, about 60 ms a
 * hash on a busy 2-core machine) that alone took a third of a second per fleet scenario, and at
 * N = 1024 still 11 ms of CPU per controller start, on the features' critical path (issue 31 §1:
 * 0.9 ms at N = 16). No clause concerns the cost (passwords are still stored only as salted scrypt
 * hashes, compared in constant time; `simulate` and remote controllers keep their own cost), so
 * the harness's own fixture uses the cheapest one.
 */
const HARNESS_SCRYPT_COST = { N: 16, r: 8, p: 1 };

/**
 * The default fixture of the simulated controller (docs/fleet-controller.md, "Default fixture"):
 * partner Nordlicht owns Hamburg and Kiel and manages Bremen on behalf of Südwind, which owns
 * Bremen and München. Public demo values, not secrets.
 */
const EMBEDDED_ACCOUNTS = {
  partner: {
    email: 'anna.admin@nordlicht.example',
    password: 'Nordlicht-Demo-1',
    name: 'Anna Admin',
    id: 'acc-anna',
    partnerId: 'p-nordlicht',
  },
  partnerColleague: {
    email: 'tom.technik@nordlicht.example',
    password: 'Nordlicht-Demo-2',
    name: 'Tom Technik',
    id: 'acc-tom',
    partnerId: 'p-nordlicht',
  },
  viewer: {
    email: 'vera.viewer@nordlicht.example',
    password: 'Nordlicht-Demo-3',
    name: 'Vera Viewer',
    id: 'acc-vera',
    partnerId: 'p-nordlicht',
  },
  otherPartner: {
    email: 'sam.admin@suedwind.example',
    password: 'Suedwind-Demo-1',
    name: 'Sam Admin',
    id: 'acc-sam',
    partnerId: 'p-suedwind',
  },
};

const EMBEDDED_SITES = {
  own: 'site-hamburg',
  second: 'site-kiel',
  shared: 'site-bremen',
  foreign: 'site-muenchen',
};

const EMBEDDED_TOKENS = {
  readWrite: 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ',
  readOnly: 'demo-anna-read-only-3Hs6PdJ1cR5yF0uE',
  // Lea's, a Technician whose own account level is read only (MCP-ACK-ACCOUNT-LEVEL).
  readOnlyAccount: 'demo-lea-read-write-5Jm8RbX3qC6vH2nD',
};

/**
 * The simulated PBXs run their clocks this far behind the controller's, so a time taken from the
 * wrong clock shows (FLEET-ITEM-FIRSTAT: the items carry the PBX's clock).
 */
export const EMBEDDED_PBX_CLOCK_LAG_MS = 5 * 3_600_000 + 17 * 60_000 + 23_000;

/**
 * A fresh simulated fleet controller for one scenario (default fixture, 127.0.0.1, ephemeral ports,
 * frozen virtual clock), driven through its HTTP control plane. A simulated PBX is started, with a
 * frozen clock of its own, registered and connected over the ingest link the first time a scenario
 * needs one for a site; everything is closed with the target.
 */
export async function openEmbeddedFleet(): Promise<FleetTarget> {
  const controller = await startController({ clock: { mode: 'frozen' }, scryptCost: HARNESS_SCRYPT_COST });
  const control = httpFleetControl(controller.urls.control);
  const pbxs = new Map<string, Promise<{ plane: PbxPlane; close(): Promise<void> }>>();

  const startFor = async (siteId: string) => {
    const registration = await control.registerPbx({ siteId });
    const handle = await startPbx({
      monitoringPort: 0,
      clock: { mode: 'frozen', start: Date.now() - EMBEDDED_PBX_CLOCK_LAG_MS },
      controller: { ingest: registration.ingest, siteId, key: registration.key },
    });
    const plane: PbxPlane = {
      siteId,
      control: httpPbxControl(handle.urls.control),
    };
    if (!(await deliveredInTime(plane.control))) {
      await handle.close();
      throw new Error(`the simulated PBX of ${siteId} did not connect to the controller`);
    }
    return { plane, close: () => handle.close() };
  };

  return {
    name: 'simulator',
    kind: 'embedded',
    apiUrl: controller.urls.api,
    mcpUrl: controller.urls.mcp,
    accounts: structuredClone(EMBEDDED_ACCOUNTS),
    idpOnlyEmail: 'sso.only@nordlicht.example',
    declaredSites: { ...EMBEDDED_SITES },
    control,
    async mcpToken(role) {
      return EMBEDDED_TOKENS[role];
    },
    async pbx(siteId) {
      let started = pbxs.get(siteId);
      if (!started) {
        started = startFor(siteId);
        pbxs.set(siteId, started);
      }
      return (await started).plane;
    },
    async reset() {},
    async close() {
      const settled = await Promise.allSettled(pbxs.values());
      await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
      await controller.close();
    },
  };
}
