/**
 * Domain types of the simulated fleet controller (maintenance-and-fleet-api.md, part B).
 * The wire shapes are in schemas/fleet/*.schema.json; these are the stored forms. The severities
 * and the PBX inventory are shared with the PBX's forwarder and live on the wire floor
 * (simulators/shared/wire/).
 */
import type { WireAttentionEvent } from '../../shared/wire/ingest-protocol.ts';
import type { Severity } from '../../shared/wire/severity.ts';

/** Roles of a controller account. Only `Viewer` changes behaviour (FLEET-AUTH-VIEWER-ACK-403). */
export const ROLES = ['Admin', 'Technician', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Access level of an account or an MCP access token (MCP-ATTENTION-READ-LEVEL, MCP-ACK-ACCOUNT-LEVEL,
 * MCP-ACK-TOKEN-LEVEL): `read` lists, `read-write` also acknowledges.
 */
export const LEVELS = ['read', 'read-write'] as const;
export type Level = (typeof LEVELS)[number];

/** A partner access: the unit that acknowledgements and history belong to (FLEET-ACK-PARTNER-WIDE). */
export interface PartnerAccess {
  id: string;
  name: string;
}

/** A site as the controller keeps it; `id` is the `siteId` of the paths. */
export interface Site {
  id: string;
  displayName: string;
}

/**
 * A right of a partner access on a site (FLEET-AUTH-VISIBLE-SITES). `own` for its own sites,
 * `managed` for sites it manages on behalf of another. `modules`, when set, limits which modules'
 * items the partner sees (FLEET-UNSPEC-INVISIBLE-ITEM: the simulator's notion of an invisible item).
 */
export interface SiteRight {
  partnerId: string;
  siteId: string;
  kind: 'own' | 'managed';
  modules?: string[];
}

export interface Account {
  id: string;
  email: string;
  /** Display name; history entries copy it at acknowledgement time (FLEET-HISTORY-ACTOR). */
  name: string;
  role: Role;
  partnerId: string;
  /** Salted scrypt hash (`password-hash.ts`); `null` for accounts of an external identity provider. */
  passwordHash: string | null;
  /** The account's level for MCP (MCP-ACK-ACCOUNT-LEVEL). */
  level: Level;
}

/** An MCP access token as stored: only the SHA-256 of the secret is kept. */
export interface AccessTokenRecord {
  id: string;
  accountId: string;
  label: string;
  level: Level;
  /** Lowercase hex SHA-256 of the secret. */
  secretSha256: string;
  createdAt: number;
}

/**
 * One report as the controller receives it (from the ingest link or the control plane): the event
 * as the PBX sent it (`at` by the PBX clock, FLEET-ITEM-FIRSTAT) and its withheld count.
 */
export interface AttentionReport extends WireAttentionEvent {
  /**
   * Reports of this module and subject the PBX withheld before this one (EVENT-THROTTLE-SUPPRESSED,
   * FLEET-ITEM-SUPPRESSED: they count towards the item this report merges into).
   */
  suppressed: number;
}

/** The attention item as stored; `acks` holds the acknowledgements of the current open cycle. */
export interface AttentionItem {
  id: number;
  siteId: string;
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: Severity;
  firstAt: number;
  lastAt: number;
  occurrences: number;
  suppressed: number;
  /** partnerId → acknowledgement of the current cycle; a new report clears it (EVENT-REPORT-REOPENS). */
  acks: Map<string, { at: number }>;
}

export type Channel = 'console' | 'mcp';

/** A stored acknowledgement history entry; `own` is computed per caller (FLEET-UNSPEC-OWN). */
export interface HistoryRecord {
  seq: number;
  partnerId: string;
  siteId: string;
  accountId: string;
  actor: string;
  channel: Channel;
  createdAt: number;
  siteName: string;
  attention: { id: number; module: string; subject: string; severity: Severity; comment: string | null };
}

/** Counters the control plane shows; the load test reconciles them with the PBX side. */
export interface IngestStats {
  /** Event messages accepted (each one an occurrence of an item). */
  accepted: number;
  /** Event messages dropped because the site held 200 items (EVENT-SITE-CAP). */
  capped: number;
  /** Sum of `suppressed` carried by capped messages (lost with them). */
  cappedSuppressed: number;
  /** Re-sent messages already processed (same stream and sequence number). */
  duplicates: number;
  /** Malformed event messages. */
  invalid: number;
}
