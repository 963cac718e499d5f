import { ipv4ToNumber, numberToIpv4 } from '../../src/core/cidr-edges.ts';

function mask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** The CIDR range of `prefix` bits that contains `address`, written `network/prefix`. */
export function rangeAround(address: string, prefix: number): string {
  return `${numberToIpv4((ipv4ToNumber(address) & mask(prefix)) >>> 0)}/${prefix}`;
}

/** Whether `address` lies in the entry (`a.b.c.d` or `a.b.c.d/p`). */
export function entryContains(entry: string, address: string): boolean {
  const [network = '', prefixText] = entry.split('/');
  const prefix = prefixText === undefined ? 32 : Number(prefixText);
  const m = mask(prefix);
  return (ipv4ToNumber(network) & m) >>> 0 === (ipv4ToNumber(address) & m) >>> 0;
}

/** A documentation range (RFC 5737) that does not contain `address`. */
export function foreignRange(address: string): string {
  return ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'].find((r) => !entryContains(r, address))!;
}
