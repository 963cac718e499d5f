import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { numberToIpv4 } from '../../../src/core/cidr-edges.ts';
import { entryContains, foreignRange, rangeAround } from '../../../steps/support/ipv4.ts';

test('builds the range of a prefix around an address', () => {
  assert.equal(rangeAround('127.0.0.1', 24), '127.0.0.0/24');
  assert.equal(rangeAround('127.0.0.1', 8), '127.0.0.0/8');
  assert.equal(rangeAround('10.1.2.3', 0), '0.0.0.0/0');
  assert.equal(rangeAround('10.1.2.3', 32), '10.1.2.3/32');
});

test('MON-AUTH-HOSTS-CIDR: an address lies in every range built around it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }), (n, prefix) => {
      const address = numberToIpv4(n);
      return entryContains(rangeAround(address, prefix), address);
    }),
  );
});

test('tells addresses outside an entry', () => {
  assert.equal(entryContains('192.0.2.0/24', '127.0.0.1'), false);
  assert.equal(entryContains('127.0.0.1', '127.0.0.2'), false);
  assert.equal(entryContains('127.0.0.1', '127.0.0.1'), true);
  assert.equal(entryContains(foreignRange('192.0.2.7'), '192.0.2.7'), false);
});
