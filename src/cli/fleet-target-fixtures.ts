import type { Fleet } from '../../simulators/fleet/index.ts';
import type { FleetTargetAccount, FleetTargetUrls } from './target-description.ts';

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
 * control planes, `pbxControlUrls[i]` for `pbxs[i]`.
 */
export function fleetTargetFixtures(
  fleet: Fleet,
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
    pbxs: fleet.pbxs.flatMap(({ siteId }, i) => {
      const controlUrl = pbxControlUrls[i];
      return controlUrl === undefined ? [] : [{ siteId, controlUrl }];
    }),
  };
}
