import type { FleetControl } from '../../../simulators/fleet-controller/index.ts';
import type { PbxControl } from '../../../simulators/pbx/index.ts';

/**
 * The callers the fleet scenarios speak of. `partner` and `partnerColleague` are non-Viewer
 * accounts of one partner access, `viewer` a Viewer of that access, `otherPartner` an account of
 * another partner access that shares a site with it (FLEET-ACK-PARTNER-WIDE,
 * FLEET-ACK-OTHER-PARTNERS-UNAFFECTED, FLEET-AUTH-VIEWER-ACK-403).
 */
export const FLEET_ROLES = ['partner', 'partnerColleague', 'viewer', 'otherPartner'] as const;
export type FleetRole = (typeof FLEET_ROLES)[number];

/**
 * Sites by what they are to the partner: `own` and `second` are its sites, `shared` is visible to
 * both partners, `foreign` only to the other partner (FLEET-AUTH-FOREIGN-SITE-HIDDEN). `fresh` is a
 * site of the partner that the scenario added through the controller's control plane, so it holds
 * no item of earlier runs, acknowledged or not (EVENT-SITE-CAP); a target file never names it.
 */
export const SITE_ROLES = ['own', 'second', 'shared', 'foreign', 'fresh'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

/**
 * MCP access tokens by level (MCP-ATTENTION-READ-LEVEL, MCP-ACK-TOKEN-LEVEL, MCP-ACK-ACCOUNT-LEVEL):
 * `readWrite` and `readOnly` belong to the partner's account; `readOnlyAccount` is a read-and-write
 * token of a non-Viewer account of the partner access whose own level is read only.
 */
export const MCP_TOKEN_ROLES = ['readWrite', 'readOnly', 'readOnlyAccount'] as const;
export type McpTokenRole = (typeof MCP_TOKEN_ROLES)[number];

/** HTTP Basic credentials of a local controller account, plus what the control plane knows of it. */
export interface FleetAccount {
  email: string;
  password: string;
  /** Display name (history `actor`), when the target names it. */
  name?: string;
  /** Account id on the controller's control plane. */
  id?: string;
  /** Partner access id on the controller's control plane. */
  partnerId?: string;
}

/** A simulated or real PBX connected to the controller, driven through its control plane. */
export interface PbxPlane {
  siteId: string;
  /**
   * Clock, state overlays and module log (schemas/pbx-control.openapi.yaml), and the attention-event
   * operations: raise, partner release, link cut and restore (pbx-control.openapi.yaml, `pbx-events`).
   */
  control: PbxControl;
}

/**
 * A fleet controller under test: where its faces are, the fixtures a target supplies, and the
 * control planes it has. Steps reach the controller only through this (REST, MCP, control planes),
 * so the same scenario can certify a real controller.
 */
export interface FleetTarget {
  name: string;
  kind: 'embedded' | 'remote';
  /** `{controller_url}`; REST is under `${apiUrl}/api/v1`. */
  apiUrl: string;
  mcpUrl?: string;
  accounts: { partner: FleetAccount } & Partial<Record<Exclude<FleetRole, 'partner'>, FleetAccount>>;
  /** E-mail of an account that signs in only through an external identity provider. */
  idpOnlyEmail?: string;
  /** Site ids the target names; the others are derived from the site lists. */
  declaredSites: Partial<Record<SiteRole, string>>;
  /** The controller's control plane, when the target has one. */
  control?: FleetControl;
  /** An MCP token of the given level, when the target has (or can make) one. */
  mcpToken(role: McpTokenRole): Promise<string | undefined>;
  /** The control planes of the PBX connected for `siteId` (started on first use when embedded). */
  pbx(siteId: string): Promise<PbxPlane | undefined>;
  /** Back to the starting state between scenarios (remote targets with control planes). */
  reset(): Promise<void>;
  close(): Promise<void>;
}
