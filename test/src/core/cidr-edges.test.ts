import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import {
  boundaryRanges,
  EDGE_EXAMPLE_PREFIXES,
  edgeAddresses,
  edgeRangeAmong,
  edgesAround,
  ipv4ToNumber,
  LOOPBACK_EDGE_PREFIXES,
  loopbackEdgeClientAddresses,
  loopbackEdges,
  numberToIpv4,
  widestBoundaryAmong,
} from '../../../src/core/cidr-edges.ts';

/** Independent model: whether `address` shares the first `prefix` bits of the entry's network, as bit strings. */
function bits(address: string): string {
  return address
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
}
function inRange(entry: string, address: string): boolean {
  const [network = '', prefix = '32'] = entry.split('/');
  const n = Number(prefix);
  return bits(network).slice(0, n) === bits(address).slice(0, n) && /^0*$/.test(bits(network).slice(n));
}

const address = fc.integer({ min: 0, max: 2 ** 32 - 1 }).map(numberToIpv4);

test('the edges of a /24 and a /32 range', () => {
  assert.deepEqual(edgesAround('192.0.2.77', 24), {
    range: '192.0.2.0/24',
    first: '192.0.2.0',
    last: '192.0.2.255',
    before: '192.0.1.255',
    after: '192.0.3.0',
  });
  assert.deepEqual(edgeAddresses(edgesAround('192.0.2.77', 32)!), ['192.0.2.77', '192.0.2.76', '192.0.2.78']);
});

test('a range at either end of the address space has no neighbour there', () => {
  assert.equal(edgesAround('0.0.0.5', 24), undefined);
  assert.equal(edgesAround('255.255.255.250', 29), undefined);
  assert.equal(edgesAround('255.255.255.250', 30)?.after, '255.255.255.252');
  assert.equal(edgesAround('10.0.0.1', 0), undefined);
  assert.throws(() => edgesAround('10.0.0.1', 33), /prefix/);
});

test('MON-AUTH-HOSTS-CIDR: first and last address lie in the range, the neighbours just outside do not', () => {
  fc.assert(
    fc.property(address, fc.integer({ min: 0, max: 32 }), (peer, prefix) => {
      const edges = edgesAround(peer, prefix);
      fc.pre(edges !== undefined);
      assert.ok(inRange(edges.range, peer), `${peer} is not in ${edges.range}`);
      assert.ok(inRange(edges.range, edges.first) && inRange(edges.range, edges.last));
      assert.ok(!inRange(edges.range, edges.before) && !inRange(edges.range, edges.after));
      assert.equal(ipv4ToNumber(edges.before) + 1, ipv4ToNumber(edges.first));
      assert.equal(ipv4ToNumber(edges.last) + 1, ipv4ToNumber(edges.after));
      assert.equal(ipv4ToNumber(edges.last) - ipv4ToNumber(edges.first) + 1, 2 ** (32 - prefix));
    }),
  );
});

test('finds a range only where all four edge addresses are named', () => {
  const named = ['192.0.2.9', '192.0.2.10', '192.0.2.11', '192.0.2.12'];
  assert.equal(edgeRangeAmong(named, 32)?.range, '192.0.2.10/32');
  assert.equal(edgeRangeAmong(named, 31)?.range, '192.0.2.10/31');
  assert.equal(
    edgeRangeAmong(named, 30),
    undefined,
    '192.0.2.8/30 needs .7 and .8, 192.0.2.12/30 needs .15 and .16',
  );
  assert.equal(
    edgeRangeAmong(['192.0.2.7', '192.0.2.8', '192.0.2.11', '192.0.2.12'], 30)?.range,
    '192.0.2.8/30',
  );
  assert.equal(edgeRangeAmong(['192.0.2.7', '192.0.2.8', '192.0.2.12'], 30), undefined);
  assert.equal(edgeRangeAmong(['192.0.2.10', '192.0.2.11'], 32), undefined);
});

test('the boundary ranges of two adjacent addresses are the widest that end at the lower and start at the upper', () => {
  assert.deepEqual(boundaryRanges('192.0.2.10'), {
    lower: '192.0.2.10',
    upper: '192.0.2.11',
    endingAtLower: '192.0.2.10/32',
    startingAtUpper: '192.0.2.11/32',
  });
  assert.deepEqual(boundaryRanges('127.127.255.255'), {
    lower: '127.127.255.255',
    upper: '127.128.0.0',
    endingAtLower: '127.0.0.0/9',
    startingAtUpper: '127.128.0.0/9',
  });
  assert.equal(boundaryRanges('127.255.255.255')?.endingAtLower, '0.0.0.0/1');
  assert.equal(boundaryRanges('255.255.255.255'), undefined);
});

test('MON-AUTH-HOSTS-CIDR: a boundary range one bit wider would hold the other address of the pair', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 2 }).map(numberToIpv4), (lower) => {
      const b = boundaryRanges(lower)!;
      const prefix = Number(b.endingAtLower.split('/')[1]);
      assert.ok(inRange(b.endingAtLower, b.lower) && !inRange(b.endingAtLower, b.upper));
      assert.ok(inRange(b.startingAtUpper, b.upper) && !inRange(b.startingAtUpper, b.lower));
      assert.equal(b.startingAtUpper.split('/')[0], b.upper);
      // One bit shorter: the first `prefix - 1` bits of the two addresses are equal.
      assert.equal(bits(b.lower).slice(0, prefix - 1), bits(b.upper).slice(0, prefix - 1));
    }),
  );
});

test('picks the adjacent pair with the widest boundary ranges', () => {
  assert.equal(widestBoundaryAmong(['127.0.0.1', '127.0.0.5']), undefined);
  assert.equal(widestBoundaryAmong(['127.0.0.2', '127.0.0.1'])?.endingAtLower, '127.0.0.0/31');
  assert.equal(
    widestBoundaryAmong(['127.0.0.1', '127.0.0.2', '127.0.0.255', '127.0.1.0'])?.startingAtUpper,
    '127.0.1.0/24',
  );
});

test('the loopback edge addresses lie in 127/8 and hold the edges of every example and a wide boundary pair', () => {
  const addresses = loopbackEdgeClientAddresses();
  for (const a of addresses) assert.ok(inRange('127.0.0.0/8', a), a);
  for (const prefix of EDGE_EXAMPLE_PREFIXES) {
    assert.deepEqual(edgeRangeAmong(addresses, prefix)?.range.split('/')[1], String(prefix));
    assert.ok(edgeAddresses(loopbackEdges(prefix)).every((a) => addresses.includes(a)));
  }
  assert.equal(widestBoundaryAmong(['127.0.0.1', '127.0.0.2', ...addresses])?.endingAtLower, '127.0.0.0/9');
  for (let prefix = LOOPBACK_EDGE_PREFIXES.min; prefix <= LOOPBACK_EDGE_PREFIXES.max; prefix++) {
    for (const a of edgeAddresses(loopbackEdges(prefix)))
      assert.ok(inRange('127.0.0.0/8', a), `/${prefix}: ${a}`);
  }
  assert.throws(() => loopbackEdges(9), /loopback/);
});
