// The front door of the fleet engine (issue 30 §3): many simulated PBXs and their controller, as
// `simulate` runs them. It is the one simulator that stands on others: it starts PBXs and a fleet
// controller through their front doors (test/architecture/import-graph.test.ts). The CLI, bench,
// tests and scripts import this file only, the unit tests under test/simulators/fleet/ excepted;
// it exports exactly the names curated in test/architecture/front-doors.test.ts.

export {
  /** A range of IPv4 addresses, one per simulated PBX: `a.b.c.d/len` or `first-last`. */
  type AddressPool,
  /** Address `index` (0-based) of a pool. */
  addressAt,
  /** The pool `simulate` takes PBX addresses from by default: 127.64.0.0/10, loopback on Linux. */
  DEFAULT_ADDRESS_POOL,
  /** A pooled fleet: each PBX on its own address of a pool, every PBX on the same ports. */
  type FleetPool,
  /** Parses `--address-pool`; throws `Error` with a one-line reason. */
  parseAddressPool,
} from './address-pool.ts';
/** The controller's fixture with a site and an ingest key per PBX, demo sites beyond the default ones. */
export { demoFixture } from './demo-fixture.ts';
export {
  /** Descriptors `count` PBXs (or sites) need in one process, `perPbx` each. */
  descriptorsNeeded,
  /** Descriptors a PBX of a shard needs: its two listeners (its ingest session rides the shard's link). */
  FDS_PER_SHARD_PBX,
  /** The most PBXs (or sites), `perPbx` descriptors each, that fit under an open-file limit. */
  largestFleetUnder,
  /** Which open-file limit is too low for a fleet and the command that raises it, or null. */
  openFileShortfall,
  /** Binds and closes `address:port`; the error code when that fails, else null. */
  probeBind,
  /** The open-file limit of this process (`/proc/self/limits`), or null where there is none to read. */
  readOpenFileLimit,
} from './fleet-preflight.ts';
/** What a fleet, or a shard of it, that did not start throws: which part failed, and why. */
export { FleetStartError } from './fleet-start-error.ts';
export {
  /** What `pbxOfPool` reads and rewrites of a target file. */
  type PooledTarget,
  /** `fleet.pool` of a target file (schemas/target.schema.json): a pooled fleet, described compactly. */
  type PoolSection,
  /** A target file moved to PBX n of the pooled fleet it describes. */
  pbxOfPool,
} from './pool-target.ts';
export type {
  /** A running shard: its slice of the fleet's PBXs (indexes `[from, to)` of the whole fleet). */
  FleetShard,
  /** Shard i/N of a fleet whose controller runs elsewhere (`startFleet({ part: 'shard', … })`). */
  ShardOptions,
} from './shard-fleet.ts';
export {
  /** The ingest key of a site, derived from the fleet secret, so controller and shards agree without talking. */
  derivedIngestKey,
  /** The environment variable both the controller and the shards read the fleet secret from. */
  FLEET_SECRET_ENV,
  /** Parses `--shard i/N` (or a Kubernetes Indexed Job's index); throws `Error` with a one-line reason. */
  parseShard,
  /** A shard: its 0-based index and the number of shards. */
  type Shard,
} from './shards.ts';
export {
  /** The controller alone (`simulate --fleet-only`): every site waits for its PBX from a shard. */
  type ControllerOnlyOptions,
  /** A running fleet: its controller and the PBXs of this process. */
  type Fleet,
  /** What `startFleet` takes: a whole fleet, the controller alone, or one shard. */
  type FleetOptions,
  /** A PBX of the fleet in this process, with its site. */
  type FleetPbx,
  /** Upper bound of `--pbx-count` with a listener set per PBX on `--host` and ephemeral ports. */
  MAX_PBX_COUNT,
  /** Upper bound of `--pbx-count` for a pooled fleet (one address per PBX). */
  MAX_POOLED_PBX_COUNT,
  /** Starts a fleet: the controller and its PBXs, the controller alone, or one shard of the PBXs. */
  startFleet,
  /** The controller and every PBX in this process (`simulate --pbx-count N`). */
  type WholeFleetOptions,
} from './start-fleet.ts';
