import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** One monitoring-hosts entry as a network (MON-AUTH-HOSTS-CIDR). */
export interface Ipv4Range {
  /** The entry as written, for messages. */
  readonly entry: string;
  /** Network address as a dotted quad, host bits cleared. */
  readonly network: string;
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
 * Parses one entry: `a.b.c.d` or `a.b.c.d/n` with n in 0..32 (MON-AUTH-HOSTS-CIDR). The address
 * must pass node:net `isIPv4`: four decimal octets 0..255 without leading zeros, so `010.0.0.1`
 * cannot be read as octal by one tool and as decimal by another (node:net `BlockList` itself would
 * silently never match such an entry). Host bits set in a range (`10.1.2.3/24`) are cleared rather
 * than refused, as common firewalls do (MON-UNSPEC-HOSTS-LIST). Nothing else is allowed, not even
 * surrounding white space. Throws `HostEntryError`.
 */
export function parseHostEntry(entry: string): Ipv4Range {
  const slash = entry.indexOf('/');
  const addressText = slash === -1 ? entry : entry.slice(0, slash);
  if (!isIPv4(addressText)) throw new HostEntryError(entry, `'${addressText}' is not an IPv4 address`);
  if (slash === -1) return { entry, network: addressText, prefix: 32 };
  const prefixText = entry.slice(slash + 1);
  if (!/^(?:[0-9]|[12][0-9]|3[0-2])$/.test(prefixText)) {
    throw new HostEntryError(entry, `prefix '${prefixText}' is not a number from 0 to 32`);
  }
  const prefix = Number(prefixText);
  // Octet i keeps its first `prefix - 8i` bits (0..8): no 32-bit shifts, so /0 and /32 need no case.
  const network = addressText
    .split('.')
    .map((octet, i) => Number(octet) & (0xff00 >> Math.min(8, Math.max(0, prefix - 8 * i))) & 0xff)
    .join('.');
  return { entry, network, prefix };
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
 * Whether a peer may be served: its IPv4 address lies in one of the ranges
 * (MON-AUTH-HOSTS-CIDR). node:net `BlockList` does the matching; it also applies IPv4 rules to
 * IPv4-mapped IPv6 peers (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4 peer). A
 * peer that is really IPv6, or missing, matches nothing (MON-IPV4-ONLY), and with no ranges nobody
 * matches (MON-AUTH-UNLISTED-CLOSED).
 */
export function isAllowed(address: string | undefined, ranges: readonly Ipv4Range[]): boolean {
  return checkAddress(address, blockListOf(ranges));
}

function blockListOf(ranges: readonly Ipv4Range[]): BlockList {
  const allowed = new BlockList();
  for (const range of ranges) allowed.addSubnet(range.network, range.prefix, 'ipv4');
  return allowed;
}

function checkAddress(address: string | undefined, allowed: BlockList): boolean {
  if (address === undefined) return false;
  const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (type === null) return false;
  return allowed.check(address, type);
}

/**
 * A dotted-quad IPv4 address as node reports a peer (`a.b.c.d`, decimal octets 0..255 without
 * leading zeros) as an unsigned 32-bit number, or -1 for anything else.
 */
function ipv4Number(address: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && octet === 0) return -1;
      octet = octet * 10 + (code - 48);
      if (++digits > 3 || octet > 255) return -1;
    } else return -1;
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** The network number and mask of a range, unsigned 32-bit. */
function numericRange(range: Ipv4Range): { network: number; mask: number } {
  const mask = range.prefix === 0 ? 0 : (0xffffffff << (32 - range.prefix)) >>> 0;
  return { network: (ipv4Number(range.network) & mask) >>> 0, mask };
}

/**
 * `isAllowed` against the active entries of a hosts list, the list parsed once per distinct list
 * rather than once per connection (issue 31 §3: a poller opens a connection per fetch). The key is
 * the list's text, so a list changed in place is seen at once. A peer in dotted-quad form (what
 * an IPv4 listener reports) is matched on numbers against each range's network and mask; any other
 * form (IPv4-mapped or real IPv6, missing) goes to node:net `BlockList` as in `isAllowed`, so both
 * answer alike. The numbers spare the `SocketAddress` node builds for every `BlockList` check.
 */
export class AllowListCache {
  private key: string | undefined;
  private allowed = new BlockList();
  private numeric: { network: number; mask: number }[] = [];

  allows(address: string | undefined, hosts: readonly { entry: string; active: boolean }[]): boolean {
    let key = '';
    for (const host of hosts) key += `${host.active ? '+' : '-'}${host.entry}\n`;
    if (key !== this.key) {
      const { ranges } = activeRanges(hosts);
      this.allowed = blockListOf(ranges);
      this.numeric = ranges.map(numericRange);
      this.key = key;
    }
    const number = address === undefined ? -1 : ipv4Number(address);
    if (number < 0) return checkAddress(address, this.allowed);
    for (const { network, mask } of this.numeric) if ((number & mask) >>> 0 === network) return true;
    return false;
  }
}

/** A range as `a.b.c.d/n`, host bits cleared: one rule of the firewall the module opens. */
export function rangeText(range: Ipv4Range): string {
  return `${range.network}/${range.prefix}`;
}
