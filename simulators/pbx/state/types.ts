import type { ResolverState } from '../state/resolver-state.ts';

/**
 * The one state of a simulated PBX. Every face (port-6556 endpoint, XML-RPC, maintenance API,
 * resolver, attention events) reads and changes this same object, so a change made through one
 * interface shows in the others (see ../../../docs/design.md, "One state, many faces").
 *
 * The field list follows the JSON snapshot of monitoring-endpoint-and-xmlrpc.md
 * ("Snapshot as JSON"); numbers that cannot be determined are `-1` (MON-JSON-SENTINEL).
 * Scenario files (schemas/pbx-scenario.schema.json) are deep-partial overlays of this shape.
 */
export interface PbxState {
  appliance: ApplianceState;
  licence: LicenceState;
  update: UpdateState;
  security: SecurityState;
  sip: SipState;
  traffic: TrafficState;
  rtp: RtpState;
  channels: ChannelsState;
  accounts: AccountsState;
  peers: PeerState[];
  sipProviders: SipProviderState[];
  modules: ModuleState[];
  backups: BackupState[];
  database: DatabaseState;
  java: JavaState;
  /** `null` when no RAID is configured (MON-TEXT-PBX-RAID, MON-XML-RAID). */
  raid: RaidState | null;
  os: OsState;
  system: SystemHousekeepingState;
  /** PBX users that may sign in to XML-RPC. Only SHA-512 hex of the password is kept. */
  users: PbxUser[];
  directory: { activeDirectoryEnabled: boolean };
  monitoring: MonitoringSettings;
  maintenance: MaintenanceSettings;
  /** Web resolver: country code, providers, address book, search log, caller-ID result (docs/resolver.md). */
  resolver: ResolverState;
  /**
   * Unknown extra content of the agent text (docs/simulator.md, "Agent-text extensions"): extra
   * sections and extra `key value` lines inside the key/value PBX sections, so a plug-in can be
   * shown that readers must ignore unknown entries (monitoring-endpoint-and-xmlrpc.md, Versioning).
   * Empty by default; no other format shows it.
   */
  agentExtensions: AgentExtensions;
}

/** The PBX sections whose lines are all `key value` lines (and may take extra lines). */
export const KEY_VALUE_SECTIONS = [
  'pbx',
  'pbx_accounts',
  'pbx_database',
  'pbx_db_connections',
  'pbx_java',
] as const;
export type KeyValueSection = (typeof KEY_VALUE_SECTIONS)[number];

export interface AgentExtensions {
  /**
   * Extra sections, written after the standard Linux sections and before `<<<pbx>>>`; `name`
   * matches `[A-Za-z0-9_]+` and is none of the agent's own section names; each line is one line
   * of text (no line break, no `<<<`).
   */
  sections: { name: string; lines: string[] }[];
  /**
   * Extra `key value` lines appended to a key/value PBX section. Each key (`[a-z][a-z0-9_]*`) is
   * new: it is not a prefix of a key the section already writes, nor does one of those keys start
   * it (FIELD-KEY-PREFIX-FREE, FIELD-ADDITIVE-ONLY).
   */
  extraLines: Record<KeyValueSection, string[]>;
}

export interface ApplianceState {
  type: string;
  /** Serial number; `''` when unknown (written `n/a` in `<<<pbx>>>`). */
  serial: string;
  /** System manufacturer as the hardware reports it (`system_manufacturer`). */
  manufacturer: string;
  /** System product name as the hardware reports it (`system_product_name`). */
  productName: string;
  hostname: string;
  pbxVersion: string;
  pbxBuildDate: string;
  maxUsers: number;
  maxConnections: number;
  debugMode: boolean;
  hardwareId: string;
  /** Milliseconds since the Linux host booted, at `bootedAt` on the virtual clock. -1 when unknown. */
  uptimeLinuxMs: number;
  /** Uptime of the telephony engine as text (XML `channels/@engineUptime`). */
  engineUptime: string;
}

export interface LicenceUsage {
  licensed: number;
  used: number;
}

export interface LicenceState {
  /** The module licence; without it the endpoint stops and XML-RPC data queries return empty payloads. */
  valid: boolean;
  owner: string;
  maxUsers: number;
  fullUsers: LicenceUsage;
  lightUsers: LicenceUsage;
  iQueues: { standard: LicenceUsage; priority: LicenceUsage; skill: LicenceUsage };
  terminalServer: LicenceUsage;
  appPremium: LicenceUsage;
  /** ISO date (yyyy-mm-dd). */
  serverLicenseValidUntil: string;
  /** ISO date (yyyy-mm-dd) of the update contract. */
  updateContractValidUntil: string;
}

export type UpdateKind = 'none' | 'major' | 'minor';

export interface UpdateState {
  /** `none` means no update is available. A major update changes the first version part. */
  kind: UpdateKind;
  latestVersion: string;
  /** Versions that `UpdatePbx` may install (MAINT-UNSPEC-PARAMETER-VALUES: the simulator's choice). */
  availableVersions: string[];
}

export interface SecurityState {
  passwordCheck: boolean;
  attackDetection: boolean;
  sipFloodProtection: boolean;
  /** Hosts blocked by the attack detection (`blacklisted_hosts`, JSON `securityBlockedIps`). */
  blockedIps: number;
  /** Hosts on the allow list of the attack detection (`whitelisted_hosts`). */
  whitelistedHosts: number;
}

export interface SipState {
  /** SIP health of the local registrar, e.g. `OK`. */
  localhostStatus: string;
  knownPhones: number;
  onlinePhones: number;
  ipChangedPhones: number;
  provisionedPhones: number;
  /** Phones provision themselves (`autoprovisioning`). */
  autoprovisioning: boolean;
  /** Autoprovisioning accepts every MAC address (`accept_all_macs`). */
  acceptAllMacs: boolean;
  /** Phone firmware updates run automatically (`automated_firmware_updates`). */
  automatedFirmwareUpdates: boolean;
}

export interface TrafficState {
  webSessions: number;
  appConnections: number;
  linkedCalls: number;
  parkedCalls: number;
  conferenceCalls: number;
}

export interface RtpState {
  activeChannels: number;
  avgJitterMs: number;
  medianJitterMs: number;
  maxJitterMs: number;
  avgPacketLossPercent: number;
  medianPacketLossPercent: number;
  maxPacketLossPercent: number;
  avgRttMs: number;
  medianRttMs: number;
  maxRttMs: number;
  estimatedMos: number;
  medianMos: number;
  minMos: number;
}

export interface ChannelsState {
  max: number;
  /**
   * One engine channel name per active channel; the technology is its prefix up to `/`, e.g.
   * `SIP/trunk1-0000002a`, `DAHDI/i1/0791234567-11d4` (channels by technology).
   */
  active: string[];
  last5MinCalls: number;
}

export interface AccountsState {
  total: number;
  admin: number;
  active: number;
  available: number;
  ringing: number;
  unavailable: number;
}

export interface PeerState {
  name: string;
  ipaddr: string;
  /** Latency in ms; -1 when the peer is unreachable or unmonitored. */
  lastms: number;
  monitored: boolean;
  online: boolean;
  /**
   * Details of the telephony engine's peer listing (`<<<pbx_peers>>>`); optional, with defaults:
   * `port` 5060 while online with an address, else 0; `dynamic` true; `nat` false; `acl` false.
   * The status column is derived from `monitored`, `online` and `lastms` (`OK (21 ms)`,
   * `UNKNOWN`, `UNREACHABLE`, `Unmonitored`), so it always agrees with the summary line.
   */
  port?: number;
  /** Registers dynamically (the `D` column). */
  dynamic?: boolean;
  /** NAT handling on (the Forcerport and Comedia columns say `Yes`). */
  nat?: boolean;
  /** An ACL applies (the `A` column). */
  acl?: boolean;
}

export interface SipProviderState {
  uri: string;
  registered: boolean;
}

export interface ModuleInstanceState {
  name: string;
  /** Status of the instance for the local check `PBX Module<Name>`: 0 ok, 1 warning, 2 critical. */
  status: 0 | 1 | 2;
  statusText: string;
}

export interface ModuleState {
  name: string;
  /** Module identifier (as in the download URL `/downloads/moduledata/<module_id>/...`). */
  id: string;
  version: string;
  vendor: string;
  instances: ModuleInstanceState[];
}

/** One backup run of a target. `result` is a key like `de.vendor.backup.successful`. */
export interface BackupRun {
  /** Epoch milliseconds of the run. */
  time: number;
  result: string;
}

export interface BackupState {
  /** Storage type shown in brackets, e.g. `HDD`, `SMB`, `FTP`. */
  type: string;
  /** Location, e.g. `192.0.2.6:/Backup`; may be empty for local disks. */
  location: string;
  /** Human status message of the most recent run (may carry an error text). */
  message: string;
  /** Runs, any order; the most recent one decides the status. */
  runs: BackupRun[];
  /** Bytes held at this target (shrunk by `DeleteBackups`). */
  sizeBytes: number;
}

export interface DbConnectionGroup {
  name: string;
  count: number;
}

export interface DatabaseState {
  databaseSize: number;
  cdrSize: number;
  connections: {
    /**
     * Connections opened and closed since start (`opened_connections`, `closed_connections` of
     * `<<<pbx_database>>>`); `opened - closed` is the number open now, `total`.
     */
    opened: number;
    closed: number;
    total: number;
    active: number;
    idle: number;
    idleInTx: number;
    max: number;
    byApp: DbConnectionGroup[];
    byDb: DbConnectionGroup[];
  };
}

export interface JavaState {
  vmName: string;
  /** `java.vm.vendor`. */
  vmVendor: string;
  /** `java.vm.version` (the VM build, e.g. `17.0.15+6-LTS`). */
  vmVersion: string;
  /** `java.version`. */
  version: string;
  heapUsed: number;
  heapMax: number;
  nonHeapUsed: number;
  /** Maximum non-heap memory in bytes; -1 when unlimited (the JVM's own sentinel). */
  nonHeapMax: number;
  maxMemory: number;
}

export interface RaidState {
  level: string;
  /** e.g. `clean`, `degraded`, `rebuilding`. */
  status: string;
  devices: { name: string; state: string }[];
  /**
   * The RAID controller's own table lines (unit table, port table), written verbatim after
   * `raid_status` in `<<<pbx>>>`. Optional: without it (or empty) the simulator derives a
   * controller-style table from `level`, `status` and `devices`.
   */
  controllerTable?: string[];
}

export interface OsState {
  load1: number;
  load5: number;
  load15: number;
  memTotalBytes: number;
  memAvailableBytes: number;
  diskRootTotalBytes: number;
  diskRootFreeBytes: number;
  /**
   * Where the standard Linux sections come from: `host` reads this machine's /proc,
   * `synthetic` renders them from the numbers above (deterministic, used by tests).
   */
  linuxSectionsSource: 'host' | 'synthetic';
}

/** Counters that the maintenance commands act on; they also feed local checks. */
export interface SystemHousekeepingState {
  systemMessages: number;
  logBytes: number;
  tempFileBytes: number;
  recordingBytes: number;
  faxes: number;
  faxQueue: number;
  firmwareBytes: number;
  /**
   * The support-log part of `logBytes` (≤ `logBytes`; the rest is the PBX log). `DeleteLogs` with
   * `scope` `support` or `pbx` removes one part (docs/maintenance-api.md).
   */
  supportLogBytes: number;
  /** `PBX Log Status Support/PBX`: 0 ok, 1 warning, 2 critical, with text. */
  logStatus: { status: 0 | 1 | 2; text: string };
}

export interface PbxUser {
  login: string;
  /** Lowercase hex SHA-512 of the password; the clear password is never kept. */
  passwordSha512: string;
  admin: boolean;
}

export type SnapshotFormat = 'checkmk' | 'xml' | 'json';

export interface MonitoringSettings {
  /** The endpoint tile (MON-STATE-TILE-DEFAULT-ON). */
  tileOn: boolean;
  /** Configured TCP port; 0 asks the OS for an ephemeral one (tests). */
  port: number;
  /** Listen address (IPv4 only, MON-IPV4-ONLY). */
  host: string;
  defaultFormat: SnapshotFormat;
  /** IPv4 addresses and CIDR ranges; an entry with `active: false` is ignored. */
  hosts: { entry: string; active: boolean }[];
  cacheLifetimeMs: number;
  /** Grace time in ms before a silent client gets the raw answer (MON-UNSPEC-RAW-DETECTION). */
  rawGraceMs: number;
  /** XML-RPC instance name; methods are `<instance>.<command>`. */
  instanceName: string;
  /** URL parameter that carries XML-RPC credentials (real systems use a product-specific name). */
  authParam: string;
}

export interface MaintenanceSettings {
  /** Module version; interface A exists only after 26.7.28 (MAINT-MODULE-VERSION-GATE). */
  moduleVersion: string;
  /**
   * Whether a partner is released on this system: the management module forwards attention events
   * to the fleet controller only then (EVENT-FORWARD-WITH-PARTNER, EVENT-NO-FORWARD-WITHOUT-PARTNER;
   * EVENT-UNSPEC-PARTNER-RELEASE: a flag the control plane sets; default true). Added for
   * simulators/pbx/events/.
   */
  partnerReleased: boolean;
  /**
   * Virtual-clock epoch ms until which the PBX is restarting after `RestartPbx`; the data endpoint
   * and the web faces are unavailable while `now < restartingUntil` (`isPbxRestarting`). 0: not
   * restarting.
   */
  restartingUntil: number;
  /** How long a `RestartPbx` keeps the PBX restarting, in virtual ms (default 60 000). */
  restartDurationMs: number;
  /**
   * IANA time zone in which `UpdatePbx`'s local `executeAt` is read (default `UTC`;
   * MAINT-UNSPEC-UPDATE-SCHEDULING).
   */
  timeZone: string;
  /** The one pending scheduled update of `UpdatePbx`; `version` `''` means none is pending. */
  scheduledUpdate: ScheduledUpdate;
}

/** An update `UpdatePbx` scheduled with `executeAt` (docs/maintenance-api.md, "UpdatePbx scheduling"). */
export interface ScheduledUpdate {
  /** Target version; `''` when no update is scheduled. */
  version: string;
  /** `executeAt` as the client sent it (`yyyy-mm-ddThh:mm`, local to `timeZone`); `''` when none. */
  executeAt: string;
  /** Virtual-clock epoch ms at which it installs; 0 when none. */
  dueAt: number;
}

/** A deep-partial overlay of the state, as scenario files and `PATCH /state` use it. */
export type DeepPartial<T> = T extends (infer U)[]
  ? U[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | null }
    : T;
