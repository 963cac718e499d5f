import { createHash, randomBytes } from 'node:crypto';
import type { FleetFixture, FleetHandle } from '../../simulators/fleet-controller/index.ts';
import type { ControllerSettings, PbxHandle, PbxStartOptions } from '../../simulators/pbx/index.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import type { FleetTargetAccount, FleetTargetUrls } from './target-description.ts';

/** Upper bound of `--pbx-count`: each PBX is four listeners in this one process. */
export const MAX_PBX_COUNT = 50;

/** Partner that owns the sites added when `--pbx-count` exceeds the fixture's sites. */
const DEMO_SITE_OWNER = 'p-nordlicht';

export interface DemoFleetOptions {
  host: string;
  /** Address and token of the controller's control plane (default 127.0.0.1, no token). */
  controlHost?: string;
  controlToken?: string;
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
 * `--data DIR`) and one PBX per site, so each simulated PBX forwards its attention events over the
 * real ingest link. Sites are taken in the fixture's order; beyond them, demo sites
 * `site-demo-<n>` owned by Nordlicht are added. The demo sites and every PBX's site and ingest key
 * are part of the fixture the controller starts with, so the control plane's reset (which reloads
 * the fixture, docs/fleet-controller.md) keeps the registrations and the PBXs' links reconnect by
 * themselves; a restored data directory is brought in line with the same fixture (missing sites
 * added, each PBX registered with its key). A controller that does not start (a busy or foreign
 * data directory) is a harness error.
 */
export async function startDemoFleet(options: DemoFleetOptions): Promise<DemoFleet> {
  const { start, defaultFixture } = await import('../../simulators/fleet-controller/index.ts');
  const fixture = demoFixture(defaultFixture(), options.pbxCount);
  let controller: FleetHandle;
  try {
    controller = await start({
      fixture,
      host: options.host,
      ...(options.controlHost === undefined ? {} : { controlHost: options.controlHost }),
      ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
      clock: { mode: options.clock },
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    });
  } catch (error) {
    throw new HarnessError(`the fleet controller did not start: ${oneLineMessage(error)}`);
  }
  const peers: DemoFleet['peers'] = [];
  const close = async () => {
    const running = peers.splice(0);
    await Promise.all(running.map(({ pbx }) => pbx.close()));
    await controller.close();
  };
  try {
    await alignStoredState(controller, fixture);
    const ingest = connectableTcp(controller.urls.ingest);
    const registrations: ControllerSettings[] = (fixture.pbxs ?? []).map(({ siteId, key }) => ({
      ingest,
      siteId,
      key,
    }));
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

/**
 * `base` with demo sites up to `count` sites (owned by Nordlicht when the fixture has it) and a
 * PBX (site and fresh ingest key) for each of the first `count` sites, in the fixture's order.
 */
export function demoFixture(base: FleetFixture, count: number): FleetFixture {
  const fixture = structuredClone(base);
  const owner = fixture.partners.some((p) => p.id === DEMO_SITE_OWNER);
  for (let n = fixture.sites.length + 1; fixture.sites.length < count; n++) {
    const id = `site-demo-${n}`;
    if (fixture.sites.some((s) => s.id === id)) continue;
    fixture.sites.push({ id, displayName: `Demo-Standort ${n}` });
    if (owner) fixture.rights.push({ partnerId: DEMO_SITE_OWNER, siteId: id, kind: 'own' });
  }
  fixture.pbxs = fixture.sites
    .slice(0, count)
    .map((site) => ({ siteId: site.id, key: randomBytes(32).toString('base64url') }));
  return fixture;
}

/**
 * A restored data directory holds what an earlier run stored, with that run's keys: the fixture's
 * PBX sites are added where missing and registered with this run's keys (a new directory already
 * got them from the fixture).
 */
async function alignStoredState(controller: FleetHandle, fixture: FleetFixture): Promise<void> {
  const { state } = controller.internals;
  for (const { siteId, key } of fixture.pbxs ?? []) {
    if (!state.access.sites.has(siteId)) {
      const site = fixture.sites.find((s) => s.id === siteId);
      await controller.control.addSite({ id: siteId, displayName: site?.displayName ?? siteId });
      for (const right of fixture.rights.filter((r) => r.siteId === siteId))
        if (state.access.partners.has(right.partnerId)) await controller.control.grant(right);
    }
    const keySha256 = createHash('sha256').update(key, 'utf8').digest('hex');
    if (state.ingest.links.get(siteId)?.keySha256 !== keySha256)
      await controller.control.registerPbx(siteId, key);
  }
}

/**
 * The roles of the fleet scenarios (schemas/target.schema.json, `$defs/fleet`) in the default
 * fixture: Anna and Tom of Nordlicht, Vera its Viewer, Lea whose account level is read only, Sam of Südwind (which shares Bremen).
 */
const DEMO_ROLES = {
  accounts: { partner: 'acc-anna', partnerColleague: 'acc-tom', viewer: 'acc-vera', otherPartner: 'acc-sam' },
  idpOnly: 'acc-sso',
  mcpTokens: { readWrite: 'tok-anna-rw', readOnly: 'tok-anna-r', readOnlyAccount: 'tok-lea-rw' },
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
  for (const role of ['readWrite', 'readOnly', 'readOnlyAccount'] as const) {
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
