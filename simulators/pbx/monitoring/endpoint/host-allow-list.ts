import { isIPv4 } from 'node:net';

/** One monitoring-hosts entry as a network: `address & mask(prefix) === network`. */
export interface Ipv4Range {
  /** The entry as written, for messages. */
  readonly entry: string;
  /** Network address as an unsigned 32-bit integer, host bits cleared. */
  readonly network: number;
  /** Prefix length 0..32; a bare address is /32. */
  readonly prefix: number;
}

/** A monitoring-hosts entry that is neither an IPv4 address nor an IPv4 CIDR range. */
export class HostEntryError extends Error {
  constructor(
    readonly entry: string,
    reason: string,
  ) {
    super(
      `invalid monitoring-hosts entry '${entry}': ${reason} (expected an IPv4 address or CIDR range like 192.0.2.0/24)`,
    );
    this.name = 'HostEntryError';
  }
}

/**
 * Dotted-quad IPv4 text to an unsigned 32-bit integer, or `null`. Strict: four decimal octets
 * 0..255 without leading zeros (node:net `isIPv4`), so `010.0.0.1` cannot be read as octal by one
 * tool and as decimal by another.
 */
export function ipv4ToInt(text: string): number | null {
  if (!isIPv4(text)) return null;
  return text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

/**
 * Parses one entry: `a.b.c.d` or `a.b.c.d/n` with n in 0..32 (MON-AUTH-HOSTS-CIDR). Host bits
 * set in a range (`10.1.2.3/24`) are cleared rather than refused, as common firewalls do
 * (MON-UNSPEC-HOSTS-LIST). Nothing else is allowed, not even surrounding white space. Throws
 * `HostEntryError`.
 */
export function parseHostEntry(entry: string): Ipv4Range {
  const slash = entry.indexOf('/');
  const addressText = slash === -1 ? entry : entry.slice(0, slash);
  const address = ipv4ToInt(addressText);
  if (address === null) throw new HostEntryError(entry, `'${addressText}' is not an IPv4 address`);
  if (slash === -1) return { entry, network: address, prefix: 32 };
  const prefixText = entry.slice(slash + 1);
  if (!/^(?:[0-9]|[12][0-9]|3[0-2])$/.test(prefixText)) {
    throw new HostEntryError(entry, `prefix '${prefixText}' is not a number from 0 to 32`);
  }
  const prefix = Number(prefixText);
  return { entry, network: (address & maskOf(prefix)) >>> 0, prefix };
}

/**
 * The active entries of the monitoring-hosts list as ranges; inactive entries are ignored
 * (MON-AUTH-EMPTY-LIST). Invalid active entries are returned in `invalid` instead of throwing, so
 * one typo does not lock every listed host out; the endpoint logs them.
 */
export function activeRanges(hosts: readonly { entry: string; active: boolean }[]): {
  ranges: Ipv4Range[];
  invalid: HostEntryError[];
} {
  const ranges: Ipv4Range[] = [];
  const invalid: HostEntryError[] = [];
  for (const host of hosts) {
    if (!host.active) continue;
    try {
      ranges.push(parseHostEntry(host.entry));
    } catch (error) {
      if (error instanceof HostEntryError) invalid.push(error);
      else throw error;
    }
  }
  return { ranges, invalid };
}

/**
 * The peer address as IPv4 integer: plain dotted quad, or IPv4-mapped IPv6 (`::ffff:a.b.c.d`,
 * what a dual-stack socket reports for an IPv4 peer). Anything else (real IPv6, missing) is `null`.
 */
export function peerIpv4(address: string | undefined): number | null {
  if (address === undefined) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return ipv4ToInt(mapped ? mapped[1]! : address);
}

/**
 * Whether a peer may be served: its IPv4 address lies in one of the ranges
 * (MON-AUTH-HOSTS-CIDR). A peer that is not IPv4 matches nothing (MON-IPV4-ONLY), and with no
 * ranges nobody matches (MON-AUTH-UNLISTED-CLOSED).
 */
export function isAllowed(address: string | undefined, ranges: readonly Ipv4Range[]): boolean {
  const peer = peerIpv4(address);
  if (peer === null) return false;
  return ranges.some((range) => (peer & maskOf(range.prefix)) >>> 0 === range.network);
}

function maskOf(prefix: number): number {
  // `<<` works on 32 bits, and a shift by 32 is a shift by 0: /0 needs its own case.
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** A range as `a.b.c.d/n`, host bits cleared: one rule of the firewall the module opens. */
export function rangeText(range: Ipv4Range): string {
  const n = range.network;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/${range.prefix}`;
}
