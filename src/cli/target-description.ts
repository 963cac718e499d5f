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
    listedClientAddress: string;
    unlistedClientAddress: string;
  };
}

export interface SimulatorFacts {
  webUrl: string;
  controlUrl: string;
  monitoring: { host: string; port: number };
  instanceName: string;
  authParam: string;
  login: string;
  password: string;
}

/** The harness connects from these loopback addresses; the default scenario lists only the first. */
export const LISTED_CLIENT_ADDRESS = '127.0.0.1';
export const UNLISTED_CLIENT_ADDRESS = '127.0.0.2';

export function describeSimulatorTarget(facts: SimulatorFacts): TargetDescription {
  return {
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
      listedClientAddress: LISTED_CLIENT_ADDRESS,
      unlistedClientAddress: UNLISTED_CLIENT_ADDRESS,
    },
  };
}
