import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  activeRanges,
  HostEntryError,
  isAllowed,
  parseHostEntry,
  peerIpv4,
} from '../../../../../simulators/pbx/monitoring/endpoint/host-allow-list.ts';

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
  assert.deepEqual(parseHostEntry('192.0.2.7'), { entry: '192.0.2.7', network: 0xc0000207, prefix: 32 });
});

test('clears host bits of a CIDR range', () => {
  const range = parseHostEntry('10.1.2.3/24');
  assert.equal(range.network, 0x0a010200);
  assert.equal(range.prefix, 24);
});

test('refuses host names, IPv6, bad prefixes and leading zeros with the entry in the message', () => {
  for (const entry of [
    'pbx.example',
    '::1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/08',
    '010.0.0.1',
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

test('normalises IPv4-mapped IPv6 peers and refuses real IPv6 peers', () => {
  assert.equal(peerIpv4('::ffff:127.0.0.1'), 0x7f000001);
  assert.equal(peerIpv4('::FFFF:10.0.0.1'), 0x0a000001);
  assert.equal(peerIpv4('::1'), null);
  assert.equal(peerIpv4(undefined), null);
  const ranges = [parseHostEntry('0.0.0.0/0')];
  assert.equal(isAllowed('::ffff:198.51.100.9', ranges), true);
  assert.equal(isAllowed('2001:db8::1', ranges), false);
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
