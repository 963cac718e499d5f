import type { FleetHandle } from '../../simulators/fleet-controller/index.ts';
import type { FleetFixture } from '../../simulators/fleet-controller/model/fleet-fixture.ts';
import type { ControllerSettings } from '../../simulators/pbx/events/controller-link.ts';
import type { PbxHandle, PbxStartOptions } from '../../simulators/pbx/index.ts';
import { HarnessError, oneLineMessage } from './harness-error.ts';
import type { FleetTargetAccount, FleetTargetUrls } from './target-description.ts';

/** Upper bound of `--pbx-count`: each PBX is four listeners in this one process. */
export const MAX_PBX_COUNT = 50;

/** Partner that owns the sites added when `--pbx-count` exceeds the fixture's sites. */
const DEMO_SITE_OWNER = 'p-nordlicht';

export interface DemoFleetOptions {
  host: string;
  clock: 'running' | 'frozen';
  /** PBXs in the fleet, the primary included (one site each). */
  pbxCount: number;
  /** `--data DIR`, already resolved; absent: in memory. */
  dataDir?: string;
}

/** A running controller and the PBX registrations for the fleet's sites, primary first. */
export interface DemoFleet {
  controller: FleetHandle;
  /** The fixture the controller was started with (the demo accounts come from it). */
  fixture: FleetFixture;
  /** One per PBX to start; `[0]` is for the primary PBX. */
  registrations: ControllerSettings[];
  /** Started with `startPeers`: the PBXs other than the primary, with their site. */
  peers: { siteId: string; pbx: PbxHandle }[];
  /** Starts a PBX for every registration after the first, with `options` (ports 0, own clock). */
  startPeers(options: PbxStartOptions): Promise<void>;
  /** Closes the peers, then the controller. */
  close(): Promise<void>;
}

/**
 * `simulate`'s fleet (issue 4): a fleet controller with the default fixture (or the state kept in
 * `--data DIR`) and one PBX registration per site through the controller's control plane, so each
 * simulated PBX forwards its attention events over the real ingest link. Sites are taken in the
 * fixture's order; beyond them, demo sites `site-demo-<n>` owned by Nordlicht are added.
 * A controller that does not start (a busy or foreign data directory) is a harness error.
 */
export async function startDemoFleet(options: DemoFleetOptions): Promise<DemoFleet> {
  const { start, defaultFixture } = await import('../../simulators/fleet-controller/index.ts');
  const fixture = defaultFixture();
  let controller: FleetHandle;
  try {
    controller = await start({
      fixture,
      host: options.host,
      clock: { mode: options.clock },
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    });
  } catch (error) {
    throw new HarnessError(`the fleet controller did not start: ${oneLineMessage(error)}`, 1);
  }
  const peers: DemoFleet['peers'] = [];
  const close = async () => {
    const running = peers.splice(0);
    await Promise.all(running.map(({ pbx }) => pbx.close()));
    await controller.close();
  };
  try {
    const sites = await fleetSites(controller, fixture, options.pbxCount);
    const registrations: ControllerSettings[] = [];
    for (const siteId of sites) {
      const reg = await controller.control.registerPbx(siteId);
      registrations.push({ ingest: connectableTcp(reg.ingest), siteId: reg.siteId, key: reg.key });
    }
    const { start: startPbx } = await import('../../simulators/pbx/index.ts');
    return {
      controller,
      fixture,
      registrations,
      peers,
      async startPeers(pbxOptions) {
        for (const settings of registrations.slice(1)) {
          const pbx = await startPbx({ ...pbxOptions, controller: settings });
          peers.push({ siteId: settings.siteId, pbx });
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The first `count` sites: the fixture's in its order, then other stored ones, then new demo sites. */
async function fleetSites(controller: FleetHandle, fixture: FleetFixture, count: number): Promise<string[]> {
  const stored = controller.internals.state.sites;
  const ordered = fixture.sites.map((s) => s.id).filter((id) => stored.has(id));
  for (const id of [...stored.keys()].sort()) if (!ordered.includes(id)) ordered.push(id);
  for (let n = ordered.length + 1; ordered.length < count; n++) {
    const id = `site-demo-${n}`;
    if (stored.has(id)) continue;
    await controller.control.addSite({ id, displayName: `Demo-Standort ${n}` });
    if (controller.internals.state.partners.has(DEMO_SITE_OWNER))
      await controller.control.grant({ partnerId: DEMO_SITE_OWNER, siteId: id, kind: 'own' });
    ordered.push(id);
  }
  return ordered.slice(0, count);
}

/**
 * The roles of the fleet scenarios (schemas/target.schema.json, `$defs/fleet`) in the default
 * fixture: Anna and Tom of Nordlicht, Vera its Viewer, Sam of Südwind (which shares Bremen).
 */
const DEMO_ROLES = {
  accounts: { partner: 'acc-anna', partnerColleague: 'acc-tom', viewer: 'acc-vera', otherPartner: 'acc-sam' },
  idpOnly: 'acc-sso',
  mcpTokens: { readWrite: 'tok-anna-rw', readOnly: 'tok-anna-r' },
  sites: { own: 'site-hamburg', second: 'site-kiel', shared: 'site-bremen', foreign: 'site-muenchen' },
} as const;

/**
 * The fleet's part of the fixture names a target file gives (accounts, tokens and sites by role,
 * from the default fixture; with `--data` they are what the fixture first wrote) plus the PBXs'
 * control planes, `pbxControlUrls[i]` for `registrations[i]`.
 */
export function fleetTargetFixtures(
  fleet: DemoFleet,
  pbxControlUrls: string[],
): Omit<FleetTargetUrls, 'apiUrl' | 'mcpUrl' | 'controlUrl'> {
  const { fixture } = fleet;
  const account = (id: string): FleetTargetAccount | undefined => {
    const a = fixture.accounts.find((x) => x.id === id);
    return a && a.password !== null
      ? { email: a.email, password: a.password, name: a.name, id: a.id, partnerId: a.partnerId }
      : undefined;
  };
  const partner = account(DEMO_ROLES.accounts.partner);
  if (!partner) throw new Error('the default fixture has no partner account');
  const accounts: FleetTargetUrls['accounts'] = { partner };
  for (const role of ['partnerColleague', 'viewer', 'otherPartner'] as const) {
    const found = account(DEMO_ROLES.accounts[role]);
    if (found) accounts[role] = found;
  }
  const idp = fixture.accounts.find((a) => a.id === DEMO_ROLES.idpOnly && a.password === null);
  if (idp) accounts.idpOnly = { email: idp.email };
  const mcpTokens: NonNullable<FleetTargetUrls['mcpTokens']> = {};
  for (const role of ['readWrite', 'readOnly'] as const) {
    const token = fixture.tokens.find((t) => t.id === DEMO_ROLES.mcpTokens[role]);
    if (token) mcpTokens[role] = token.secret;
  }
  const known = new Set(fixture.sites.map((site) => site.id));
  const sites = Object.fromEntries(Object.entries(DEMO_ROLES.sites).filter(([, id]) => known.has(id)));
  return {
    accounts,
    mcpTokens,
    sites,
    pbxs: fleet.registrations.flatMap((reg, i) => {
      const controlUrl = pbxControlUrls[i];
      return controlUrl === undefined ? [] : [{ siteId: reg.siteId, controlUrl }];
    }),
  };
}

/** A wildcard bind address is not a place to connect to; loopback is. */
function connectableTcp(url: string): string {
  return url.replace(/^tcp:\/\/(0\.0\.0\.0|\[::\]|::):/, 'tcp://127.0.0.1:');
}
