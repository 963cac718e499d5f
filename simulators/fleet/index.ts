// The front door of the fleet engine (issue 30 §3): many simulated PBXs and their controller, as
// `simulate` runs them. It is the one simulator that stands on others: it starts PBXs and a fleet
// controller through their front doors (test/architecture/import-graph.test.ts). The CLI, bench,
// tests and scripts import this file only; the unit tests under test/simulators/fleet/ excepted.

/** The pool of addresses a pooled fleet's PBXs listen on, one each, and how to read `--address-pool`. */
export {
  type AddressPool,
  addressAt,
  DEFAULT_ADDRESS_POOL,
  type FleetPool,
  isLoopbackPool,
  parseAddressPool,
  slicePool,
} from './address-pool.ts';
/** The controller's fixture with a site and an ingest key per PBX, demo sites beyond the default ones. */
export { demoFixture } from './demo-fixture.ts';
/** The preflight a fleet runs before its first PBX starts (open files, the pool's addresses, the ports), and its parts for benches. */
export {
  descriptorsNeeded,
  FDS_PER_PBX,
  FDS_PER_SHARD_PBX,
  largestFleetUnder,
  openFileShortfall,
  preflightFleet,
  probeBind,
  readOpenFileLimit,
} from './fleet-preflight.ts';
/** What a fleet, or a shard of it, that did not start throws: which part failed, and why. */
export { FleetStartError } from './fleet-start-error.ts';
/** A target file moved to PBX n of the pooled fleet it describes. */
export { type PooledTarget, type PoolSection, pbxOfPool } from './pool-target.ts';
/** The options and the handle of shard i/N (`startFleet({ part: 'shard', … })`, `simulate --shard i/N`). */
export type { FleetShard, ShardOptions } from './shard-fleet.ts';
/** The fleet secret, the ingest keys derived from it, and which PBXs a shard takes. */
export { derivedIngestKey, FLEET_SECRET_ENV, parseShard, type Shard, shardSlice } from './shards.ts';
/** Starts a fleet: the controller and its PBXs, the controller alone, or one shard of the PBXs. */
export {
  type ControllerOnlyOptions,
  type Fleet,
  type FleetOptions,
  type FleetPbx,
  MAX_PBX_COUNT,
  MAX_POOLED_PBX_COUNT,
  startFleet,
  type WholeFleetOptions,
} from './start-fleet.ts';
