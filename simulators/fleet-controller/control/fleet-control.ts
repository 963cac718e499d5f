import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { Severity } from '../../shared/wire/severity.ts';
import type { AttentionItemView } from '../model/caller-view.ts';
import type { IngestStats, Level, Role, SiteRight } from '../model/types.ts';

/** An account as the control plane takes it: the clear password is hashed at once and never kept. */
export interface AccountInput {
  id?: string;
  email: string;
  name: string;
  role: Role;
  partnerId: string;
  /** `null`: an account of an external identity provider, which cannot sign in (FLEET-AUTH-IDP-ONLY). */
  password: string | null;
  level?: Level;
}

/** An account as the control plane shows it: no password hash. */
export interface AccountInfo {
  id: string;
  email: string;
  name: string;
  role: Role;
  partnerId: string;
  level: Level;
  hasPassword: boolean;
}

export interface AccountPatch {
  name?: string;
  role?: Role;
  level?: Level;
  password?: string | null;
}

/** An event injected as if a PBX had forwarded it (bypasses the PBX's throttle and buffer). */
export interface InjectedEvent {
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: Severity;
  /** PBX clock of the report; default: the controller's clock. */
  at?: number;
  suppressed?: number;
}

export interface InjectResult {
  outcome: 'created' | 'merged' | 'capped';
  item?: AttentionItemView;
}

/** An item as the control plane shows it, with the partner accesses that acknowledged it. */
export interface ItemInfo extends AttentionItemView {
  siteId: string;
  acknowledgedBy: { partnerId: string; at: number }[];
}

export interface LinkStatus {
  siteId: string;
  registered: boolean;
  connected: number;
  cut: boolean;
}

export interface PbxRegistration {
  siteId: string;
  /** `tcp://host:port` of the ingest listener. */
  ingest: string;
  /** The PBX's ingest key, shown once. */
  key: string;
}

/**
 * The control plane of the simulated fleet controller: one interface, in-process
 * (`InProcessFleetControl`) and over HTTP (schemas/fleet-control.openapi.yaml).
 * Everything here stands in for the controller console and for the simulated PBXs.
 */
export interface FleetControl {
  /** Back to the fixture the controller started with; drops ingest connections. */
  reset(): Promise<void>;
  now(): Promise<number>;
  advanceClock(ms: number): Promise<number>;
  addPartner(partner: { id: string; name: string }): Promise<void>;
  addSite(site: { id: string; displayName: string }): Promise<void>;
  renameSite(siteId: string, displayName: string): Promise<void>;
  grant(right: SiteRight): Promise<void>;
  revoke(partnerId: string, siteId: string): Promise<void>;
  addAccount(input: AccountInput): Promise<AccountInfo>;
  updateAccount(id: string, patch: AccountPatch): Promise<AccountInfo>;
  /** MCP-UNSPEC-TRANSPORT: issues an access token; the secret is returned once. */
  issueToken(input: {
    accountId: string;
    level: Level;
    label?: string;
  }): Promise<{ id: string; token: string }>;
  revokeToken(id: string): Promise<void>;
  registerPbx(siteId: string, key?: string): Promise<PbxRegistration>;
  /** Sets (or with `null` clears) the inventory the findings are evaluated from. */
  setInventory(siteId: string, inventory: PbxInventory | null): Promise<void>;
  injectEvent(siteId: string, event: InjectedEvent): Promise<InjectResult>;
  cutLink(siteId: string): Promise<void>;
  restoreLink(siteId: string): Promise<void>;
  linkStatus(siteId: string): Promise<LinkStatus>;
  items(siteId: string): Promise<ItemInfo[]>;
  stats(): Promise<IngestStats>;
}
