import type { AttentionItemView } from '../model/caller-view.ts';
import type { Level, Role } from '../model/types.ts';

// The answers of the fleet control plane (schemas/fleet-control.openapi.yaml) as TypeScript; the
// operations that give them are declared in fleet-operations.ts.

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

/** What became of an injected event: `capped` (EVENT-SITE-CAP) comes without an item. */
export interface InjectResult {
  outcome: 'created' | 'merged' | 'capped';
  item?: AttentionItemView;
}

/** An item as the control plane shows it, with the partner accesses that acknowledged it. */
export interface ItemInfo extends AttentionItemView {
  siteId: string;
  acknowledgedBy: { partnerId: string; at: number }[];
}

/** A site's PBX link as the controller sees it. */
export interface LinkStatus {
  siteId: string;
  registered: boolean;
  connected: number;
  cut: boolean;
}

/** What a PBX connects to the ingest listener with. */
export interface PbxRegistration {
  siteId: string;
  /** `tcp://host:port` of the ingest listener. */
  ingest: string;
  /** The PBX's ingest key, shown once. */
  key: string;
}
