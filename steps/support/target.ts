import type { PbxControl } from '../../simulators/pbx/index.ts';
import type { VirtualClock } from '../../simulators/shared/index.ts';

/** Where XML-RPC lives on the PBX web server and whom it signs in as. */
export interface XmlRpcSettings {
  /** Path below `webUrl`, e.g. `/xml-rpc` (XMLRPC-ENDPOINT). */
  path: string;
  /** Instance name of the monitoring module; methods are `<instance>.<command>` (XMLRPC-METHOD-NAMES). */
  instanceName: string;
  /** URL parameter that carries the credentials (XMLRPC-AUTH-PARAM; MON-UNSPEC-NEUTRAL-NAMES). */
  authParam: string;
  login: string;
  password: string;
}

/** Host and port of the data endpoint as the target describes it. */
export interface MonitoringAddress {
  host: string;
  port: number;
}

/**
 * What the harness talks to on a PBX: public interfaces, credentials of a fixture user and,
 * where the target has one, the control plane. Steps use nothing else, so the same scenario runs
 * against the embedded simulator and a real PBX.
 */
export interface PbxTarget {
  /** `{base_url}` of the specs, e.g. `http://127.0.0.1:8080`. */
  webUrl: string;
  /** The data endpoint as configured for the run; `null` when the target's endpoint is not listening. */
  monitoring: MonitoringAddress | null;
  xmlrpc: XmlRpcSettings;
  /** A local IPv4 address of the harness that the PBX's monitoring-hosts list contains. */
  listedClientAddress: string;
  /** A local IPv4 address of the harness that the list does not contain (MON-AUTH-UNLISTED-CLOSED). */
  unlistedClientAddress?: string;
  /**
   * More local IPv4 addresses of the harness that reach the PBX, for the CIDR edge examples of
   * MON-AUTH-HOSTS-CIDR and MON-AUTH-UNLISTED-CLOSED (src/core/cidr-edges.ts).
   */
  edgeClientAddresses?: readonly string[];
  /** The control plane; absent on a target without one (its scenarios are then not verifiable). */
  control?: PbxControl;
  /** Base URL of that control plane, for route groups `PbxControl` does not cover (the resolver's `/resolver/*`). */
  controlUrl?: string;
  /** Its bearer token, when it requires one (a control plane beyond loopback). */
  controlToken?: string;
  /** Interface A (maintenance HTTP API); absent when the target does not describe it. */
  maintenance?: MaintenanceTarget;
  /**
   * Embedded only: the clock the simulator times its waits on (raw-mode grace, resolver lookups).
   * A silent client's grace and the reference endpoints' answer delays pass on it instead of in
   * real time; against a remote PBX, which measures real time, the harness waits.
   */
  durationClock?: VirtualClock;
}

/** A stored API-token record as an embedded simulator shows it: the hash, never a secret. */
export interface StoredTokenRecord {
  id: string;
  [field: string]: unknown;
}

/**
 * Interface A of a PBX: its base path below `webUrl` and either a control plane that manages
 * tokens and reports completion events, or a fixed valid token from the target file.
 */
export interface MaintenanceTarget {
  /** Path of the API base below `webUrl`, normally `/fp/7ce0d8df/api/v1` (MAINT-BASE-PATH). */
  basePath: string;
  /** A valid API token of the target, for targets without a maintenance control plane. */
  token?: string;
  /**
   * The `Cookie` header value of a signed-in web session of a PBX user (MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH):
   * how a session is made is the module UI's affair, so the target file supplies one.
   */
  sessionCookie?: string;
  /** Token management and completion events (the module UI's stand-in); absent without a control plane. */
  control?: PbxControl;
  /** The stored token records, where the target can show them (embedded only; MAINT-TOKEN-HASH-ONLY). */
  storedTokenRecords?: () => Promise<StoredTokenRecord[]>;
}

export type TargetKind = 'embedded' | 'remote';

/** A target of one scenario. */
export interface Target {
  name: string;
  kind: TargetKind;
  pbx: PbxTarget;
}

/** A target plus what must happen when the scenario is over. */
export interface OpenedTarget {
  target: Target;
  close(): Promise<void>;
}
