import type { PoolSection } from '../../simulators/fleet/index.ts';
import { loopbackEdgeClientAddresses } from '../core/cidr-edges.ts';
import type { ResolverTargetFixture } from './resolver-fixtures.ts';

/**
 * A target description as `verify --target` reads it (schemas/target.schema.json), for a running
 * simulator. `simulate --json` prints one as its first stdout line.
 */
export interface TargetDescription {
  name: string;
  pbx: {
    webUrl: string;
    monitoring: { host: string; port: number };
    xmlrpc: { path: string; instanceName: string; authParam: string; login: string; password: string };
    controlUrl: string;
    /** The control planes' bearer token, when they are beyond loopback. */
    controlToken?: string;
    listedClientAddress: string;
    unlistedClientAddress: string;
    /** Loopback addresses at the edges of the CIDR edge examples (src/core/cidr-edges.ts). */
    edgeClientAddresses: string[];
  };
  /** The PBX's maintenance API (interface A): `<pbx.webUrl><basePath>`. */
  maintenance: { basePath: string };
  /** The fleet controller (interface B), when `simulate` runs one. */
  fleet?: FleetTargetUrls;
  /** The web resolver: where the harness's reference endpoints listen, and certificates the PBX trusts. */
  resolver?: ResolverTargetFixture;
  /** Set when the PBX replays a recording (`simulate --recording`): src/record/replay-limits.ts. */
  replay?: { recording: string };
}

/** HTTP Basic credentials of a controller account as a target file names them. */
export interface FleetTargetAccount {
  email: string;
  password: string;
  name?: string;
  id?: string;
  partnerId?: string;
}

/** The `fleet` section of a target (schemas/target.schema.json, `$defs/fleet`). */
export interface FleetTargetUrls {
  /** `{controller_url}`; REST is under `/api/v1` (FLEET-BASE-PATH). */
  apiUrl: string;
  /** The MCP endpoint (Streamable HTTP). */
  mcpUrl: string;
  /** The controller's control plane (schemas/fleet-control.openapi.yaml). */
  controlUrl: string;
  /** The control planes' bearer token (the controller's and the PBXs'), when they are beyond loopback. */
  controlToken?: string;
  accounts: {
    partner: FleetTargetAccount;
    partnerColleague?: FleetTargetAccount;
    viewer?: FleetTargetAccount;
    otherPartner?: FleetTargetAccount;
    idpOnly?: { email: string };
  };
  mcpTokens?: { readWrite?: string; readOnly?: string; readOnlyAccount?: string };
  sites?: { own?: string; second?: string; shared?: string; foreign?: string };
  /** The PBXs connected to the controller, with their control planes (`/events/*`). */
  pbxs?: { siteId: string; controlUrl: string }[];
  /** A pooled fleet, compactly (issue 22): PBX n on the n-th address, every PBX on the same ports. */
  pool?: PoolSection & { shard?: string };
}

export interface SimulatorFacts {
  webUrl: string;
  controlUrl: string;
  monitoring: { host: string; port: number };
  instanceName: string;
  authParam: string;
  login: string;
  password: string;
  /** Base path of the maintenance API on the PBX web server. */
  maintenanceBasePath: string;
  fleet?: FleetTargetUrls;
  /** The control planes' bearer token, when they require one. */
  controlToken?: string;
}

/** The harness connects from these loopback addresses; the default scenario lists only the first. */
export const LISTED_CLIENT_ADDRESS = '127.0.0.1';
export const UNLISTED_CLIENT_ADDRESS = '127.0.0.2';

export function describeSimulatorTarget(facts: SimulatorFacts): TargetDescription {
  const target: TargetDescription = {
    name: 'simulator',
    pbx: {
      webUrl: facts.webUrl,
      monitoring: { ...facts.monitoring },
      xmlrpc: {
        path: '/xml-rpc',
        instanceName: facts.instanceName,
        authParam: facts.authParam,
        login: facts.login,
        password: facts.password,
      },
      controlUrl: facts.controlUrl,
      ...(facts.controlToken === undefined ? {} : { controlToken: facts.controlToken }),
      listedClientAddress: LISTED_CLIENT_ADDRESS,
      unlistedClientAddress: UNLISTED_CLIENT_ADDRESS,
      edgeClientAddresses: loopbackEdgeClientAddresses(),
    },
    maintenance: { basePath: facts.maintenanceBasePath },
  };
  if (facts.fleet) {
    target.fleet = structuredClone(facts.fleet);
    if (facts.controlToken !== undefined) target.fleet.controlToken = facts.controlToken;
  }
  return target;
}
