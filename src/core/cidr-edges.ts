import { isIPv4 } from 'node:net';

/** Dotted IPv4 → unsigned 32-bit number. */
export function ipv4ToNumber(address: string): number {
  if (!isIPv4(address)) throw new Error(`not an IPv4 address: ${address}`);
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** Unsigned 32-bit number → dotted IPv4. */
export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/**
 * A listed CIDR range and the four addresses at its edges: its first and last address (inside,
 * the same one for a /32) and the addresses just before and just after it (outside).
 */
export interface RangeEdges {
  /** The range as a monitoring-hosts entry, `network/prefix`, host bits clear. */
  readonly range: string;
  readonly first: string;
  readonly last: string;
  readonly before: string;
  readonly after: string;
}

/**
 * The edges of the `prefix`-bit range that contains `address` (MON-AUTH-HOSTS-CIDR,
 * MON-AUTH-UNLISTED-CLOSED). Plain arithmetic on numbers, no bit masks, so it shares no code with
 * the matcher it checks. `undefined` when the range touches 0.0.0.0 or 255.255.255.255 and so
 * has no neighbour on that side (every /0 range).
 */
export function edgesAround(address: string, prefix: number): RangeEdges | undefined {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32)
    throw new Error(`not a prefix length: ${prefix}`);
  const size = 2 ** (32 - prefix);
  const first = Math.floor(ipv4ToNumber(address) / size) * size;
  const last = first + size - 1;
  if (first === 0 || last === 2 ** 32 - 1) return undefined;
  return {
    range: `${numberToIpv4(first)}/${prefix}`,
    first: numberToIpv4(first),
    last: numberToIpv4(last),
    before: numberToIpv4(first - 1),
    after: numberToIpv4(last + 1),
  };
}

/** The distinct addresses of some edges, in the order first, last, before, after. */
export function edgeAddresses(edges: RangeEdges): string[] {
  return [...new Set([edges.first, edges.last, edges.before, edges.after])];
}

/**
 * A `prefix`-bit range whose four edge addresses are all among `addresses` (the client addresses
 * a target file names), the lowest such range; `undefined` when there is none.
 */
export function edgeRangeAmong(addresses: readonly string[], prefix: number): RangeEdges | undefined {
  const known = new Set(addresses);
  return [...known]
    .sort((a, b) => ipv4ToNumber(a) - ipv4ToNumber(b))
    .map((address) => edgesAround(address, prefix))
    .find((edges) => edges !== undefined && edgeAddresses(edges).every((a) => known.has(a)));
}

/**
 * Where the CIDR edge examples sit in 127/8, which is loopback on Linux as a whole: every range
 * around this address of 10 to 32 bits lies inside 127.64.0.0/10, so its neighbours just outside
 * are loopback addresses too (a /9 or /8 range would touch the end of 127/8). Its bits vary, so
 * the ranges of different prefixes have different edges.
 */
export const LOOPBACK_EDGE_SEED = '127.100.141.77';

/** The prefix lengths whose edges lie inside 127/8 around `LOOPBACK_EDGE_SEED`. */
export const LOOPBACK_EDGE_PREFIXES = { min: 10, max: 32 } as const;

/** The edges of the `prefix`-bit range around `LOOPBACK_EDGE_SEED` (10 ≤ prefix ≤ 32). */
export function loopbackEdges(prefix: number): RangeEdges {
  const edges =
    prefix >= LOOPBACK_EDGE_PREFIXES.min && prefix <= LOOPBACK_EDGE_PREFIXES.max
      ? edgesAround(LOOPBACK_EDGE_SEED, prefix)
      : undefined;
  if (!edges) {
    throw new Error(
      `a /${prefix} range has no loopback neighbours on both sides; use ${LOOPBACK_EDGE_PREFIXES.min} to ${LOOPBACK_EDGE_PREFIXES.max} bits`,
    );
  }
  return edges;
}

/**
 * Two adjacent addresses A and A+1 and the widest monitoring-hosts entries on either side of the
 * boundary between them: the 2^t addresses ending at A and the 2^t starting at A+1, where t is the
 * number of trailing zero bits of A+1. No wider range can end at A or start at A+1, and an entry
 * whose mask is one bit too short spans the boundary: it lets the other address in.
 */
export interface BoundaryRanges {
  /** A: the last address of `endingAtLower`, just before `startingAtUpper`. */
  readonly lower: string;
  /** A+1: the first address of `startingAtUpper`, just after `endingAtLower`. */
  readonly upper: string;
  readonly endingAtLower: string;
  readonly startingAtUpper: string;
}

/** The boundary ranges between `lower` and the next address; `undefined` for 255.255.255.255. */
export function boundaryRanges(lower: string): BoundaryRanges | undefined {
  const upper = ipv4ToNumber(lower) + 1;
  if (upper === 2 ** 32) return undefined;
  let size = 1;
  while (upper % (size * 2) === 0) size *= 2;
  const prefix = 32 - Math.log2(size);
  return {
    lower,
    upper: numberToIpv4(upper),
    endingAtLower: `${numberToIpv4(upper - size)}/${prefix}`,
    startingAtUpper: `${numberToIpv4(upper)}/${prefix}`,
  };
}

/** Of the adjacent pairs among `addresses`, the one with the widest boundary ranges. */
export function widestBoundaryAmong(addresses: readonly string[]): BoundaryRanges | undefined {
  const known = new Set(addresses);
  const prefixOf = (ranges: BoundaryRanges) => Number(ranges.endingAtLower.split('/')[1]);
  return [...known]
    .sort((a, b) => ipv4ToNumber(a) - ipv4ToNumber(b))
    .map(boundaryRanges)
    .filter((ranges): ranges is BoundaryRanges => ranges !== undefined && known.has(ranges.upper))
    .reduce<BoundaryRanges | undefined>(
      (widest, ranges) => (widest === undefined || prefixOf(ranges) < prefixOf(widest) ? ranges : widest),
      undefined,
    );
}

/**
 * The prefix lengths of the CIDR edge examples (features/monitoring/access.feature). The embedded
 * target and `simulate`'s target description name the loopback client addresses at the edges of
 * these, so the examples run the same way in process and via `--target`. Their adjacent pairs serve
 * the boundary examples too: the widest is 127.127.255.255 and 127.128.0.0 (127.0.0.0/9 and 127.128.0.0/9).
 */
export const EDGE_EXAMPLE_PREFIXES = [32, 31, 25, 24, 17, 10] as const;

/** The loopback client addresses at the edges of every CIDR edge example, ascending. */
export function loopbackEdgeClientAddresses(): string[] {
  const all = new Set(EDGE_EXAMPLE_PREFIXES.flatMap((prefix) => edgeAddresses(loopbackEdges(prefix))));
  return [...all].sort((a, b) => ipv4ToNumber(a) - ipv4ToNumber(b));
}
