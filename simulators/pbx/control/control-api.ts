import type { EndpointStatus } from '../state/endpoint-status.ts';

export type { EndpointStatus };

/** A user as the control plane takes it: the clear password is hashed at once and never kept. */
export interface PbxUserInput {
  login: string;
  password: string;
  admin?: boolean;
}

export interface MonitoringHostEntry {
  entry: string;
  active: boolean;
}

export interface ScenarioInfo {
  name: string;
  description: string;
}
