import { isIPv4 } from 'node:net';

/** The pool `simulate` takes PBX addresses from by default: 127.64.0.0/10, loopback on Linux. */
export const DEFAULT_ADDRESS_POOL = '127.64.0.0/10';

/**
 * A range of IPv4 addresses, one per simulated PBX (issue 22): `a.b.c.d/len` (its first address,
 * the network address, is skipped) or `first-last`. Addresses are handed out in order; address `i`
 * is `first + i`.
 */
export interface AddressPool {
  /** As the user wrote it. */
  spec: string;
  first: number;
  /** Number of addresses in the pool. */
  size: number;
}

/**
 * A pooled fleet (issue 22): PBX `i` of this process listens on `addresses[i]` on the same ports
 * as every other, the controller's control plane serves each PBX's control routes at
 * `/pbx/{siteId}` instead of one control listener per PBX, and each PBX's ingest link is an
 * in-process pipe to the controller's ingest listener.
 */
export interface FleetPool {
  addresses: AddressPool;
  /** Data endpoint port of every PBX (6556 on the real system). */
  dataPort: number;
  /** Web server port of every PBX. */
  webPort: number;
}

function toInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function addressAt(pool: AddressPool, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= pool.size)
    throw new RangeError(`address ${index} is outside the pool ${pool.spec}`);
  const n = pool.first + index;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses `--address-pool`; throws `Error` with a one-line reason. */
export function parseAddressPool(spec: string): AddressPool {
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(spec);
  if (cidr) {
    const [, base = '', bits = ''] = cidr;
    const len = Number(bits);
    if (!isIPv4(base) || len < 8 || len > 30)
      throw new Error(`address pool ${spec}: expected a.b.c.d/len with len 8 to 30`);
    const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
    const network = (toInt(base) & mask) >>> 0;
    return { spec, first: network + 1, size: 2 ** (32 - len) - 1 };
  }
  const range = /^([\d.]+)-([\d.]+)$/.exec(spec);
  if (range) {
    const [, from = '', to = ''] = range;
    if (!isIPv4(from) || !isIPv4(to))
      throw new Error(`address pool ${spec}: expected first-last IPv4 addresses`);
    const first = toInt(from);
    const last = toInt(to);
    if (last < first) throw new Error(`address pool ${spec}: the last address comes before the first`);
    return { spec, first, size: last - first + 1 };
  }
  throw new Error(`address pool ${spec}: expected a.b.c.d/len or first-last`);
}

/** The sub-pool of `count` addresses from `offset` on (a shard's slice). */
export function slicePool(pool: AddressPool, offset: number, count: number): AddressPool {
  if (offset + count > pool.size)
    throw new RangeError(`the pool ${pool.spec} holds ${pool.size} addresses, not ${offset + count}`);
  const sliced = { spec: pool.spec, first: pool.first + offset, size: count };
  return {
    ...sliced,
    spec: count === 0 ? pool.spec : `${addressAt(sliced, 0)}-${addressAt(sliced, count - 1)}`,
  };
}

/** True when every address of the pool is on loopback (127/8). */
export function isLoopbackPool(pool: AddressPool): boolean {
  return pool.first >>> 24 === 127 && (pool.first + pool.size - 1) >>> 24 === 127;
}
