import { httpFleetControl } from '../../../simulators/fleet-controller/index.ts';
import { httpPbxControl } from '../../../simulators/pbx/index.ts';
import type { FleetAccount, FleetTarget, McpTokenRole, PbxPlane, SiteRole } from './fleet-target.ts';

/** The `fleet` section of a target file (schemas/target.schema.json, `$defs/fleet`). */
export interface FleetTargetSection {
  apiUrl: string;
  mcpUrl?: string;
  controlUrl?: string;
  /** Bearer token of the control planes beyond loopback (the PBXs' too, unless an entry names its own). */
  controlToken?: string;
  accounts: {
    partner: FleetAccount;
    partnerColleague?: FleetAccount;
    viewer?: FleetAccount;
    otherPartner?: FleetAccount;
    idpOnly?: { email: string };
  };
  mcpTokens?: Partial<Record<McpTokenRole, string>>;
  sites?: Partial<Record<SiteRole, string>>;
  pbxs?: { siteId: string; controlUrl: string; controlToken?: string }[];
}

/**
 * A controller described by a target file: nothing is started. With `controlUrl` the controller
 * and the PBXs it lists are reset before and after each scenario; the section was validated with the
 * rest of the file against schemas/target.schema.json.
 */
export function openRemoteFleet(name: string, section: FleetTargetSection): FleetTarget {
  const { idpOnly, ...accounts } = section.accounts;
  const control = section.controlUrl
    ? httpFleetControl(section.controlUrl, { token: section.controlToken })
    : undefined;
  const planes = new Map<string, PbxPlane>();
  for (const { siteId, controlUrl, controlToken } of section.pbxs ?? []) {
    const token = controlToken ?? section.controlToken;
    planes.set(siteId, {
      siteId,
      control: httpPbxControl(controlUrl, { token }),
    });
  }
  return {
    name,
    kind: 'remote',
    apiUrl: section.apiUrl.replace(/\/+$/, ''),
    ...(section.mcpUrl ? { mcpUrl: section.mcpUrl } : {}),
    accounts: structuredClone(accounts),
    ...(idpOnly ? { idpOnlyEmail: idpOnly.email } : {}),
    declaredSites: { ...section.sites },
    ...(control ? { control } : {}),
    async mcpToken(role) {
      return section.mcpTokens?.[role];
    },
    async pbx(siteId) {
      return planes.get(siteId);
    },
    async reset() {
      await control?.reset();
      for (const plane of planes.values()) await plane.control.reset();
    },
    async close() {},
  };
}
