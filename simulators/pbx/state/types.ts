import type { ResolverState } from '../resolver/resolver-state.ts';

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
}

export interface ApplianceState {
  type: string;
  serial: string;
  manufacturer: string;
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
  blockedIps: number;
}

export interface SipState {
  /** SIP health of the local registrar, e.g. `OK`. */
  localhostStatus: string;
  knownPhones: number;
  onlinePhones: number;
  ipChangedPhones: number;
  provisionedPhones: number;
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
  /** One string per active channel, e.g. `SIP/trunk1-0000002a`. */
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
  version: string;
  heapUsed: number;
  heapMax: number;
  nonHeapUsed: number;
  maxMemory: number;
}

export interface RaidState {
  level: string;
  /** e.g. `clean`, `degraded`, `rebuilding`. */
  status: string;
  devices: { name: string; state: string }[];
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
