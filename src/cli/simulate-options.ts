/** The options of `simulate` and their defaults, shared by the single-process and the sharded fleet. */

export interface SimulateOptions {
  scenario?: string;
  port?: number;
  webPort?: number;
  controlPort?: number;
  host: string;
  /** Address of the control planes (default 127.0.0.1, whatever `host` says). */
  controlHost?: string;
  /** Bearer token of the control planes; generated (and printed once) beyond loopback. */
  controlToken?: string;
  clock: 'running' | 'frozen';
  json?: boolean;
  /** `--no-fleet` sets `false`: the primary PBX alone, as before issue 4. */
  fleet?: boolean;
  /** PBXs in the fleet, the primary included (default 3). */
  pbxCount?: number;
  /** Keep the controller's state in this directory (relative to `io.cwd`). */
  data?: string;
  /** Serve a recording (`record`): its bytes on the data endpoint and XML-RPC, its state behind the control plane. */
  recording?: string;
  /** `none`: replay the recording without its recorded delays. */
  timing?: 'recorded' | 'none';
  /**
   * Write the target description to this file (relative to `io.cwd`) once every face listens:
   * a stale file is removed first, the new one appears whole (written aside, then renamed) and is
   * removed at the stop, so a script that waits for it never reads an earlier run's.
   */
  targetFile?: string;
  /** `--address-pool`: one address per PBX from this range (issue 22); default beyond 50 PBXs. */
  addressPool?: string;
  /** `--activity field`: every PBX changes over virtual time from `seed`. */
  activity?: 'none' | 'field';
  seed?: string;
  eventsPerHour?: number;
  /** `--fleet-only`: the controller alone, for shards elsewhere (issue 22). */
  fleetOnly?: boolean;
  /** `--shard i/N` (or `N` with JOB_COMPLETION_INDEX): this process's slice of the PBXs. */
  shard?: string;
  /** `--controller tcp://host:port`: the ingest listener a shard links its PBXs to. */
  controller?: string;
  apiPort?: number;
  ingestPort?: number;
}

/** Web port of every PBX of a pooled fleet (a real PBX serves 80/443; those need root). */
export const DEFAULT_POOL_WEB_PORT = 8080;

/** Data endpoint port of every PBX of a pooled fleet: the real system's. */
export const DEFAULT_POOL_DATA_PORT = 6556;

/** PBXs `simulate` starts by default: the primary and two more, one per fixture site. */
export const DEFAULT_PBX_COUNT = 3;
