// The front door of the fleet engine (issue 30 §3): many simulated PBXs and their controller, as
// `simulate` runs them. It is the one simulator that stands on others: it starts PBXs and a fleet
// controller through their front doors (test/architecture/import-graph.test.ts). The CLI, bench,
// tests and scripts import this file only; the unit tests under test/simulators/fleet/ excepted.

/** The pool of addresses a pooled fleet's PBXs listen on, one each, and how to read `--address-pool`. */
export {
  type AddressPool,
  addressAt,
  DEFAULT_ADDRESS_POOL,
  isLoopbackPool,
  parseAddressPool,
  slicePool,
} from './address-pool.ts';
/** A controller with the demo fixture and one PBX per site (`simulate`, `simulate --fleet-only`). */
export {
  type DemoFleet,
  type DemoFleetOptions,
  demoFixture,
  type FleetPool,
  MAX_PBX_COUNT,
  MAX_POOLED_PBX_COUNT,
  startDemoFleet,
} from './demo-fleet.ts';
/** Before a pooled fleet starts: open files, the pool's addresses and the ports (issue 22). */
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
/** A target file moved to PBX n of the pooled fleet it describes. */
export { type PooledTarget, type PoolSection, pbxOfPool } from './pool-target.ts';
/** One shard of a fleet whose controller runs elsewhere (`simulate --shard i/N`). */
export { type RunningShard, type ShardOptions, startShard } from './shard-fleet.ts';
/** The fleet secret, the ingest keys derived from it, and which PBXs a shard takes. */
export { derivedIngestKey, FLEET_SECRET_ENV, parseShard, type Shard, shardSlice } from './shards.ts';
