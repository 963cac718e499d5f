import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { type AddressPool, addressAt } from './address-pool.ts';

/**
 * File descriptors one PBX of a pooled fleet holds in the controller's process: its data endpoint
 * and web listeners. Its ingest link is an in-process pipe (no descriptor); over TCP it would add
 * both ends of a socket pair, 4 in all.
 */
export const FDS_PER_PBX = 2;

/**
 * A PBX of a shard (`simulate --shard`): its two listeners. Its ingest session is a channel of the
 * shard's one multiplexed connection to the controller (issue 31 §4), no descriptor of its own.
 */
export const FDS_PER_SHARD_PBX = FDS_PER_PBX;

/**
 * A site whose PBX links on a connection of its own (a single or real PBX): the accepted end of
 * that link in the controller. The sites of a shard's PBXs share the shard's one connection.
 */
export const FDS_PER_LINKED_SITE = 1;

/** Descriptors kept free for the controller, clients, the module loader and the standard streams. */
export const FD_RESERVE = 256;

export interface OpenFileLimit {
  soft: number;
  hard: number;
}

/** The open-file limit of this process (`/proc/self/limits`), or `null` where there is none to read. */
export function readOpenFileLimit(path = '/proc/self/limits'): OpenFileLimit | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  if (!line) return null;
  const value = (v: string | undefined) => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
  return { soft: value(line[1]), hard: value(line[2]) };
}

/** Descriptors `count` PBXs (or sites) need in one process, `perPbx` each. */
export function descriptorsNeeded(count: number, perPbx = FDS_PER_PBX): number {
  return count * perPbx + FD_RESERVE;
}

/** The most PBXs (or sites), `perPbx` descriptors each, that fit under an open-file limit of `limit`. */
export function largestFleetUnder(limit: number, perPbx = FDS_PER_PBX): number {
  return Math.max(0, Math.floor((limit - FD_RESERVE) / perPbx));
}

/**
 * Raises this process's soft open-file limit to `target` (at most the hard limit unless the
 * process may raise that too: root) with util-linux `prlimit`; returns the limit afterwards.
 */
export function raiseOpenFileLimit(target: number): OpenFileLimit | null {
  const before = readOpenFileLimit();
  if (!before) return null;
  if (before.soft >= target) return before;
  const soft = Number.isFinite(before.hard) ? before.hard : target;
  if (soft > before.soft) {
    spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${soft}:${before.hard}`], {
      stdio: 'ignore',
    });
  }
  return readOpenFileLimit();
}

/** What the descriptors of one PBX (or site) are, by count. */
const HELD: Record<number, string> = {
  [FDS_PER_PBX]: 'its data endpoint and web listeners',
  [FDS_PER_LINKED_SITE]: "its PBX's ingest link",
};

/** How else the PBXs fit: across processes (the controller alone holds every link: no other way). */
const SPLIT: Record<number, string> = {
  [FDS_PER_PBX]: 'split the fleet into processes with simulate --fleet-only and --shard i/N',
};

/**
 * The one-line reason `count` PBXs (or sites), `perPbx` descriptors each, do not fit under
 * `limit`: which limit (the soft one, or the hard one that only root raises) and the command that
 * raises it; `null` when they fit.
 */
export function openFileShortfall(
  count: number,
  limit: OpenFileLimit | null,
  perPbx = FDS_PER_PBX,
  what = 'PBXs',
  shardOf?: ShardOfFleet,
): string | null {
  if (!limit) return null;
  const need = descriptorsNeeded(count, perPbx);
  if (limit.soft >= need) return null;
  const each = `${perPbx} each: ${HELD[perPbx] ?? 'listeners and links'}`;
  if (limit.hard >= need)
    return `the open-file limit ${limit.soft} is below the ${need} descriptors ${count} ${what} need in one process (${each}); raise it with \`ulimit -n ${need}\` in the shell that runs simulate`;
  const fit = largestFleetUnder(limit.hard, perPbx);
  if (shardOf) {
    // A shard is often a pod of an Indexed Job (deploy/shards.yaml), where no manifest field sets
    // the limit: the node's container runtime does. The line says both ways out (issue 29, item 8).
    const shards = fit > 0 ? Math.ceil(shardOf.pbxCount / fit) : shardOf.pbxCount;
    return `the hard open-file limit ${limit.hard} is below the ${need} descriptors the ${count} ${what} of shard ${shardOf.index}/${shardOf.total} need (${each}; at most ${fit} fit); raise it to ${need} (a container: --ulimit nofile=${need}; a Kubernetes pod: the container runtime's limit on the node, e.g. LimitNOFILE of containerd), or run more, smaller shards: --shard i/${shards} or more for --pbx-count ${shardOf.pbxCount} (an Indexed Job: completions and parallelism ${shards})`;
  }
  const split = SPLIT[perPbx] ? `, or ${SPLIT[perPbx]}` : '';
  return `the hard open-file limit ${limit.hard} is below the ${need} descriptors ${count} ${what} need in one process (${each}; at most ${fit} fit); raise it as root with \`ulimit -n ${need}\` in the shell that runs simulate (a container: --ulimit nofile=${need})${split}`;
}

/** Which shard of which fleet a shard process is, for the line of {@link openFileShortfall}. */
export interface ShardOfFleet {
  /** 1-based. */
  index: number;
  total: number;
  /** The whole fleet's `--pbx-count`. */
  pbxCount: number;
}

/** Binds and closes `address:port`; the error code when that fails, else `null`. */
export function probeBind(address: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    server.listen({ host: address, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * Before the first PBX starts (issue 22): the open-file limit (the soft limit raised to the hard
 * one where allowed), the pool's size, and the first and last address of the fleet bound on each
 * port. Returns the one-line reason the fleet cannot start, or `null`.
 */
export async function preflightFleet(options: {
  count: number;
  pool: AddressPool;
  ports: number[];
  /** Descriptors per PBX: `FDS_PER_PBX` beside the controller (default), `FDS_PER_SHARD_PBX` in a shard. */
  descriptorsPerPbx?: number;
  /** Set by `simulate --shard`: the line then names more shards as the way out. */
  shardOf?: ShardOfFleet;
}): Promise<string | null> {
  const { count, pool, ports } = options;
  const perPbx = options.descriptorsPerPbx ?? FDS_PER_PBX;
  if (count > pool.size)
    return `the address pool ${pool.spec} holds ${pool.size} addresses, fewer than the ${count} PBXs; give a larger --address-pool`;
  const limit = raiseOpenFileLimit(descriptorsNeeded(count, perPbx));
  const shortfall = openFileShortfall(count, limit, perPbx, 'PBXs', options.shardOf);
  if (shortfall) return shortfall;
  const addresses = count === 1 ? [addressAt(pool, 0)] : [addressAt(pool, 0), addressAt(pool, count - 1)];
  for (const address of addresses) {
    for (const port of ports) {
      const code = await probeBind(address, port);
      if (code === 'EADDRNOTAVAIL')
        return `address ${address} of the pool ${pool.spec} is not on this machine; add it (e.g. ip addr add ${address}/32 dev lo) or give another --address-pool`;
      if (code === 'EACCES')
        return `port ${port} on ${address} needs privileges; choose a port of 1024 or above`;
      if (code)
        return `port ${port} on ${address} is not free (${code}); stop what holds it or choose other ports`;
    }
  }
  return null;
}
