import { createHmac } from 'node:crypto';

/** The environment variable both the controller and the shards read the fleet secret from. */
export const FLEET_SECRET_ENV = 'PBX_CONFORMANCE_FLEET_SECRET';

/**
 * The ingest key of a site in a sharded fleet (issue 22): derived from the fleet secret, so the
 * controller (`simulate --fleet-only`) and every shard (`simulate --shard i/N`) agree on it without
 * talking. Never logged; the controller stores only its hash.
 */
export function derivedIngestKey(secret: string, siteId: string): string {
  return createHmac('sha256', secret).update(`ingest-key:${siteId}`, 'utf8').digest('base64url');
}

export interface Shard {
  /** 0-based (the `i` of `--shard i/N` less one). */
  index: number;
  total: number;
}

/**
 * `--shard i/N` (1-based i, as cucumber's `--shard` and CI matrices count), or `--shard N` with i
 * from Kubernetes Indexed Jobs' 0-based `JOB_COMPLETION_INDEX` (plus one). Throws `Error` with a
 * one-line reason.
 */
export function parseShard(value: string, env: NodeJS.ProcessEnv = process.env): Shard {
  const both = /^(\d{1,5})\/(\d{1,5})$/.exec(value);
  const totalOnly = /^(\d{1,5})$/.exec(value);
  let index: number;
  let total: number;
  if (both) {
    index = Number(both[1]) - 1;
    total = Number(both[2]);
    if (index < 0) throw new Error(`--shard ${value}: shards count from 1`);
  } else if (totalOnly) {
    total = Number(totalOnly[1]);
    const fromJob = env['JOB_COMPLETION_INDEX'];
    if (fromJob === undefined || !/^\d{1,5}$/.test(fromJob))
      throw new Error(
        `--shard ${value} takes the shard index from JOB_COMPLETION_INDEX, which is not set; give --shard i/${value}`,
      );
    index = Number(fromJob);
  } else {
    throw new Error(`--shard ${value}: expected i/N (1 ≤ i ≤ N) or N with JOB_COMPLETION_INDEX set`);
  }
  if (total < 1 || index >= total)
    throw new Error(`--shard ${index + 1}/${total}: the shard must be one of 1 to ${total}`);
  return { index, total };
}

/** The PBXs (indexes into the whole fleet, `[from, to)`) shard `shard` of `count` takes: contiguous, sizes differ by at most one. */
export function shardSlice(shard: Shard, count: number): { from: number; to: number } {
  return {
    from: Math.floor((shard.index * count) / shard.total),
    to: Math.floor(((shard.index + 1) * count) / shard.total),
  };
}
