import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  AllowListCache,
  activeRanges,
  HostEntryError,
  isAllowed,
  parseHostEntry,
  rangeText,
} from '../../../../simulators/pbx/state/host-allow-list.ts';

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const dotted = (o: readonly number[]) => o.join('.');

/** Independent model: compare the first `prefix` bits of the two addresses as a bit string. */
function bits(o: readonly number[]): string {
  return o.map((n) => n.toString(2).padStart(8, '0')).join('');
}
function modelMatches(
  peer: readonly number[],
  entry: { address: readonly number[]; prefix: number },
): boolean {
  return bits(peer).slice(0, entry.prefix) === bits(entry.address).slice(0, entry.prefix);
}

test('parses a bare address as /32', () => {
  assert.deepEqual(parseHostEntry('192.0.2.7'), { entry: '192.0.2.7', network: '192.0.2.7', prefix: 32 });
});

test('clears host bits of a CIDR range', () => {
  const range = parseHostEntry('10.1.2.3/24');
  assert.equal(range.network, '10.1.2.0');
  assert.equal(range.prefix, 24);
  assert.equal(rangeText(parseHostEntry('10.1.2.255/23')), '10.1.2.0/23');
  assert.equal(rangeText(parseHostEntry('255.255.255.255/0')), '0.0.0.0/0');
  assert.equal(rangeText(parseHostEntry('255.255.255.255/32')), '255.255.255.255/32');
  assert.equal(rangeText(parseHostEntry('192.0.2.7')), '192.0.2.7/32');
});

test('/0 allows every IPv4 peer, /32 exactly one', () => {
  const all = [parseHostEntry('0.0.0.0/0')];
  for (const peer of ['0.0.0.0', '255.255.255.255', '10.0.0.1']) assert.equal(isAllowed(peer, all), true);
  const one = [parseHostEntry('192.0.2.7/32')];
  assert.deepEqual(
    ['192.0.2.7', '192.0.2.6', '192.0.2.8', '::ffff:192.0.2.7'].map((peer) => isAllowed(peer, one)),
    [true, false, false, true],
  );
});

test('refuses host names, IPv6, bad prefixes and leading zeros with the entry in the message', () => {
  for (const entry of [
    'pbx.example',
    '::1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/08',
    '010.0.0.1',
    '10.0.0.01/8',
    '10.0.0.0/-1',
    ' 10.0.0.1',
    '10.0.0.1 ',
    '10.0.0.1/24/8',
    '1.2.3',
    '',
  ]) {
    assert.throws(
      () => parseHostEntry(entry),
      (error: unknown) => error instanceof HostEntryError && error.message.includes(`'${entry}'`),
    );
  }
});

test('ignores inactive entries and reports invalid active ones', () => {
  const { ranges, invalid } = activeRanges([
    { entry: '127.0.0.1', active: true },
    { entry: '127.0.0.2', active: false },
    { entry: 'not-an-ip', active: true },
    { entry: 'also-bad', active: false },
  ]);
  assert.deepEqual(
    ranges.map((r) => r.entry),
    ['127.0.0.1'],
  );
  assert.deepEqual(
    invalid.map((e) => e.entry),
    ['not-an-ip'],
  );
});

test('MON-IPV4-ONLY: matches IPv4-mapped IPv6 peers and refuses real IPv6 and missing peers', () => {
  const loopback = [parseHostEntry('127.0.0.1')];
  assert.equal(isAllowed('::ffff:127.0.0.1', loopback), true);
  assert.equal(isAllowed('::FFFF:127.0.0.1', loopback), true);
  assert.equal(isAllowed('::ffff:7f00:1', loopback), true);
  assert.equal(isAllowed('::ffff:127.0.0.2', loopback), false);
  const ranges = [parseHostEntry('0.0.0.0/0')];
  assert.equal(isAllowed('::ffff:198.51.100.9', ranges), true);
  for (const peer of [
    '2001:db8::1',
    '::1',
    '::',
    '::127.0.0.1',
    '64:ff9b::127.0.0.1',
    'localhost',
    '',
    undefined,
  ]) {
    assert.equal(isAllowed(peer, ranges), false, String(peer));
  }
});

test('an empty list allows nobody', () => {
  assert.equal(isAllowed('127.0.0.1', []), false);
});

test('127.0.0.0/30 covers .0 to .3 only', () => {
  const ranges = [parseHostEntry('127.0.0.0/30')];
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((n) => isAllowed(`127.0.0.${n}`, ranges)),
    [true, true, true, true, false, false],
  );
});

test('MON-AUTH-HOSTS-CIDR, MON-AUTH-UNLISTED-CLOSED: a peer is allowed exactly when it matches an entry', () => {
  const entry = fc.record({ address: octets, prefix: fc.integer({ min: 0, max: 32 }), bare: fc.boolean() });
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 6 }), octets, fc.boolean(), (entries, peer, mapped) => {
      const ranges = entries.map((e) =>
        parseHostEntry(e.bare ? dotted(e.address) : `${dotted(e.address)}/${e.prefix}`),
      );
      const expected = entries.some((e) =>
        modelMatches(peer, { address: e.address, prefix: e.bare ? 32 : e.prefix }),
      );
      const address = mapped ? `::ffff:${dotted(peer)}` : dotted(peer);
      assert.equal(isAllowed(address, ranges), expected);
    }),
  );
});

test('MON-AUTH-HOSTS-CIDR: every address inside a generated range matches it', () => {
  fc.assert(
    fc.property(octets, fc.integer({ min: 0, max: 32 }), octets, (base, prefix, noise) => {
      // Keep the first `prefix` bits of base and take the rest from noise: inside the range.
      const inside = bits(base).slice(0, prefix) + bits(noise).slice(prefix);
      const peer = [0, 1, 2, 3].map((i) => Number.parseInt(inside.slice(i * 8, i * 8 + 8), 2));
      assert.equal(isAllowed(dotted(peer), [parseHostEntry(`${dotted(base)}/${prefix}`)]), true);
    }),
  );
});

test('MON-AUTH-HOSTS-CIDR: the firewall rule of a generated entry is its first prefix bits, the rest zero', () => {
  fc.assert(
    fc.property(octets, fc.integer({ min: 0, max: 32 }), (address, prefix) => {
      const range = parseHostEntry(`${dotted(address)}/${prefix}`);
      const cleared = bits(address).slice(0, prefix).padEnd(32, '0');
      const network = [0, 1, 2, 3].map((i) => Number.parseInt(cleared.slice(i * 8, i * 8 + 8), 2));
      assert.equal(rangeText(range), `${dotted(network)}/${prefix}`);
      assert.deepEqual(parseHostEntry(rangeText(range)).network, range.network);
    }),
  );
});

test('MON-AUTH-HOSTS-CIDR, MON-AUTH-UNLISTED-CLOSED: a generated range allows its first and last address, not the neighbours just outside', () => {
  const toDotted = (n: number) => dotted([24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 32 }), (n, prefix) => {
      // Plain arithmetic, no masks: the range of 2^(32 - prefix) addresses that holds n.
      const size = 2 ** (32 - prefix);
      const first = Math.floor(n / size) * size;
      const last = first + size - 1;
      const ranges = [parseHostEntry(`${toDotted(n)}/${prefix}`)];
      assert.equal(isAllowed(toDotted(first), ranges), true, 'first address');
      assert.equal(isAllowed(toDotted(last), ranges), true, 'last address');
      if (first > 0) assert.equal(isAllowed(toDotted(first - 1), ranges), false, 'address just before');
      if (last < 2 ** 32 - 1)
        assert.equal(isAllowed(toDotted(last + 1), ranges), false, 'address just after');
    }),
  );
});

test('MON-AUTH-HOSTS-CIDR: the edges of 127.100.141.0/24 and 127.64.0.0/10, and a bare address as /32', () => {
  const check = (entry: string, peers: string[]) =>
    peers.map((peer) => isAllowed(peer, [parseHostEntry(entry)]));
  assert.deepEqual(
    check('127.100.141.0/24', ['127.100.140.255', '127.100.141.0', '127.100.141.255', '127.100.142.0']),
    [false, true, true, false],
  );
  assert.deepEqual(
    check('127.64.0.0/10', ['127.63.255.255', '127.64.0.0', '127.127.255.255', '127.128.0.0']),
    [false, true, true, false],
  );
  assert.deepEqual(check('127.100.141.77', ['127.100.141.76', '127.100.141.77', '127.100.141.78']), [
    false,
    true,
    false,
  ]);
});

test('MON-AUTH-HOSTS-CIDR: the cached allow-list answers as isAllowed and sees a list changed in place', () => {
  const cache = new AllowListCache();
  const hosts = [
    { entry: '192.0.2.0/24', active: true },
    { entry: '198.51.100.9', active: false },
    { entry: 'not-an-address', active: true },
  ];
  const peers = ['192.0.2.7', '::ffff:192.0.2.7', '198.51.100.9', '203.0.113.1', '2001:db8::1', undefined];
  const expected = (list: typeof hosts) => peers.map((peer) => isAllowed(peer, activeRanges(list).ranges));
  assert.deepEqual(
    peers.map((peer) => cache.allows(peer, hosts)),
    expected(hosts),
  );
  assert.deepEqual(expected(hosts), [true, true, false, false, false, false]);
  hosts[1]!.active = true;
  assert.deepEqual(
    peers.map((peer) => cache.allows(peer, hosts)),
    [true, true, true, false, false, false],
  );
  hosts.length = 0;
  assert.deepEqual(
    peers.map((peer) => cache.allows(peer, hosts)),
    [false, false, false, false, false, false],
  );
});

test('MON-AUTH-HOSTS-CIDR: the cached allow-list (numbers for dotted peers) answers as BlockList does for every peer form', () => {
  const peerText = fc.oneof(
    octets.map(dotted),
    octets.map((o) => `::ffff:${dotted(o)}`),
    octets.map((o) => `${o[0]}.${o[1]}.${o[2]}`),
    octets.map((o) => `0${dotted(o)}`),
    octets.map((o) => `${dotted(o)}.1`),
    fc.constantFrom('', '1..2.3', '256.1.1.1', '1.2.3.4 ', '::1', '::ffff:7f00:1', '1.2.3.-4', '00.1.2.3'),
  );
  const entry = fc.record({ address: octets, prefix: fc.integer({ min: 0, max: 32 }), active: fc.boolean() });
  fc.assert(
    fc.property(
      fc.array(entry, { maxLength: 5 }),
      fc.array(peerText, { minLength: 1, maxLength: 8 }),
      (entries, peers) => {
        const hosts = entries.map((e) => ({ entry: `${dotted(e.address)}/${e.prefix}`, active: e.active }));
        const cache = new AllowListCache();
        for (const peer of peers)
          assert.equal(cache.allows(peer, hosts), isAllowed(peer, activeRanges(hosts).ranges), peer);
      },
    ),
  );
});
