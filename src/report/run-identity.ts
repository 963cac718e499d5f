import { createHash } from 'node:crypto';

/**
 * Which run a report belongs to (issue 29, item 3), so `report merge` can tell the shards of one
 * run from anything else: `verify` writes the run id and its shard (`1/1` when not sharded);
 * `report merge` writes the id and the shards it joined.
 */
export interface RunIdentity {
  /** The same in every shard of one run: `verify --run-id`, PBX_CONFORMANCE_RUN_ID, else derived ({@link derivedRunId}). */
  id: string;
  /** This report's shard (`verify --shard i/N`); absent in a merged report. */
  shard?: { index: number; total: number };
  /** A merged report: the shards it joins out of `total`; `partial` when some are missing (`--allow-partial`). */
  merged?: { total: number; shards: number[]; partial: boolean };
}

/** What every shard of one run has in common, and nothing a shard has alone. */
export interface RunSettings {
  target: string;
  /** The target file's content (`null` for the embedded simulator). */
  targetText: string | null;
  tagExpression: string | null;
  shardTotal: number;
  toolVersion: string;
  catalogFingerprint: string;
}

/**
 * The run id when none is given: `run-` and 16 hex digits of the SHA-256 of the settings every
 * shard of one run shares. Shards started alike get the same id without coordination (a
 * Kubernetes Indexed Job, a loop in a shell); two runs started alike also share it, so give each
 * its own `--run-id` when their shards might meet in one merge.
 */
export function derivedRunId(settings: RunSettings): string {
  const hash = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
  return `run-${hash.slice(0, 16)}`;
}

/** `--run-id`: letters, digits, `.`, `_`, `-`, 1 to 100 characters (a CI job id, a UUID, a date). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
