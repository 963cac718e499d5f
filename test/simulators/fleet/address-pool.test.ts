import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addressAt,
  isLoopbackPool,
  parseAddressPool,
  slicePool,
} from '../../../simulators/fleet/address-pool.ts';

test('an address pool in CIDR form skips the network address and hands out addresses in order', () => {
  const pool = parseAddressPool('127.64.0.0/10');
  assert.equal(pool.size, 2 ** 22 - 1);
  assert.equal(addressAt(pool, 0), '127.64.0.1');
  assert.equal(addressAt(pool, 255), '127.64.1.0');
  assert.equal(addressAt(pool, 9_999), '127.64.39.16');
  assert.ok(isLoopbackPool(pool));
  assert.throws(() => addressAt(pool, pool.size), RangeError);
});

test('an address pool as first-last holds both ends; a reversed or malformed pool is refused with its reason', () => {
  const pool = parseAddressPool('10.0.0.250-10.0.1.3');
  assert.equal(pool.size, 10);
  assert.equal(addressAt(pool, 9), '10.0.1.3');
  assert.equal(isLoopbackPool(pool), false);
  assert.throws(() => parseAddressPool('10.0.1.3-10.0.0.250'), /before the first/);
  assert.throws(() => parseAddressPool('127.0.0.300/24'), /a\.b\.c\.d\/len/);
  assert.throws(() => parseAddressPool('localhost'), /expected/);
});

test("a shard's slice of the pool starts at its offset and names its own range", () => {
  const pool = parseAddressPool('127.64.0.0/10');
  const slice = slicePool(pool, 1_000, 500);
  assert.equal(addressAt(slice, 0), '127.64.3.233');
  assert.equal(slice.size, 500);
  assert.equal(slice.spec, '127.64.3.233-127.64.5.220');
  assert.throws(() => slicePool(parseAddressPool('127.1.2.0/30'), 2, 2), /holds 3 addresses/);
});
