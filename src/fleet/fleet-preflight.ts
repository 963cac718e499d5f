import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { type AddressPool, addressAt } from './address-pool.ts';

/**
 * File descriptors one PBX of a pooled fleet holds: its data endpoint and web listeners, its
 * ingest link, and the controller's end of that link (both ends live in this process).
 */
export const FDS_PER_PBX = 4;

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

/** Descriptors `count` PBXs need in one process. */
export function descriptorsNeeded(count: number): number {
  return count * FDS_PER_PBX + FD_RESERVE;
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

/**
 * The one-line reason `count` PBXs do not fit under `limit`, naming the command that raises it;
 * `null` when they fit.
 */
export function openFileShortfall(count: number, limit: OpenFileLimit | null): string | null {
  if (!limit) return null;
  const need = descriptorsNeeded(count);
  if (limit.soft >= need) return null;
  const hard =
    limit.hard >= need
      ? ''
      : ` (hard limit ${limit.hard}: raise it as root, e.g. prlimit --pid $$ --nofile=${need}:${need}, or in /etc/security/limits.conf)`;
  return `the open-file limit ${limit.soft} is below the ${need} descriptors ${count} PBXs need (${FDS_PER_PBX} each); raise it with \`ulimit -n ${need}\` in the shell that runs simulate${hard}`;
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
}): Promise<string | null> {
  const { count, pool, ports } = options;
  if (count > pool.size)
    return `the address pool ${pool.spec} holds ${pool.size} addresses, fewer than the ${count} PBXs; give a larger --address-pool`;
  const limit = raiseOpenFileLimit(descriptorsNeeded(count));
  const shortfall = openFileShortfall(count, limit);
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
