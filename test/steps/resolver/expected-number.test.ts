import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import {
  acceptedRenderings,
  everyNumberForm,
  inputNumber,
  readBack,
} from '../../../steps/resolver/support/expected-number.ts';
import { nationalNumber, numberFormat } from '../../../steps/resolver/support/resolver-arbitraries.ts';

test('RESOLVER-FMT-PLUS, RESOLVER-FMT-00, RESOLVER-FMT-0: the renderings of the spec, 00xx with or without the national zero', () => {
  const number = { countryCode: '49', significant: '301234567' };
  assert.deepEqual(acceptedRenderings(number, '+xx'), ['+49301234567']);
  assert.deepEqual(acceptedRenderings(number, '00xx'), ['0049301234567', '00490301234567']);
  assert.deepEqual(acceptedRenderings(number, '0'), ['0301234567']);
  assert.equal(inputNumber(number, 'national'), '0301234567');
  assert.equal(inputNumber(number, 'plus'), '+49301234567');
  assert.equal(inputNumber(number, 'double-zero'), '0049301234567');
});

test('every form of a national number: as written, +xx, both 00xx renderings and 0', () => {
  assert.deepEqual(everyNumberForm('030 1234567', '49'), [
    '030 1234567',
    '+49301234567',
    '0049301234567',
    '00490301234567',
    '0301234567',
  ]);
  assert.deepEqual(everyNumberForm('0301234567', '49'), [
    '0301234567',
    '+49301234567',
    '0049301234567',
    '00490301234567',
  ]);
});

test('RESOLVER-FMT-COUNTRY-CODE: every accepted rendering reads back to the national number (round trip)', () => {
  fc.assert(
    fc.property(nationalNumber(), numberFormat(), (number, format) => {
      for (const rendering of acceptedRenderings(number, format))
        assert.equal(readBack(rendering, number.countryCode), number.significant);
    }),
  );
});

test('readBack refuses a rendering with another country code', () => {
  assert.equal(readBack('+43123', '49'), null);
  assert.equal(readBack('0043123', '49'), null);
  assert.equal(readBack('123', '49'), null);
});
