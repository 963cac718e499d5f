import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatNumber, numberForms, parseNumber } from '../../../../simulators/pbx/resolver/number-format.ts';

const countryCode = fc.integer({ min: 1, max: 999 }).map(String);
const national = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 3, maxLength: 12 }),
  )
  .map(([first, rest]) => `${first}${rest.join('')}`);

test('a national Berlin number takes the three shapes with country code 49', () => {
  assert.deepEqual(numberForms('030 1234567', '49'), {
    '+xx': '+49301234567',
    '00xx': '0049301234567',
    '0': '0301234567',
  });
  assert.deepEqual(numberForms('+49 (0)30 123-4567', '49'), numberForms('0049301234567', '49'));
});

test('a foreign number keeps its country code; format 0 gives its international dialling form', () => {
  assert.deepEqual(numberForms('+33 1 23456789', '49'), {
    '+xx': '+33123456789',
    '00xx': '0033123456789',
    '0': '0033123456789',
  });
});

test('internal and short numbers go unchanged in every format', () => {
  assert.deepEqual(numberForms('201', '49'), { '+xx': '201', '00xx': '201', '0': '201' });
  assert.deepEqual(parseNumber('110', '49'), { kind: 'internal', digits: '110' });
});

test('anonymous, empty and non-numbers are not resolvable', () => {
  for (const input of ['', 'anonymous', 'Unknown', 'restricted', '+', '00', '0', 'abc', '*21#']) {
    assert.equal(parseNumber(input, '49').kind, 'not-resolvable', input);
    assert.equal(numberForms(input, '49'), null, input);
  }
  assert.throws(() => parseNumber('030', '049'), /country code/);
});

test('RESOLVER-FMT-PLUS RESOLVER-FMT-00 RESOLVER-FMT-0 RESOLVER-FMT-COUNTRY-CODE: generated national numbers take the three shapes', () => {
  fc.assert(
    fc.property(countryCode, national, (cc, n) => {
      const parsed = parseNumber(`0${n}`, cc);
      assert.equal(formatNumber(parsed, '+xx'), `+${cc}${n}`);
      assert.equal(formatNumber(parsed, '00xx'), `00${cc}${n}`);
      assert.equal(formatNumber(parsed, '0'), `0${n}`);
      assert.match(formatNumber(parsed, '+xx') ?? '', /^\+[1-9]\d+$/);
    }),
  );
});

test('RESOLVER-FMT-COUNTRY-CODE: every format reads back to the same three forms (round trip)', () => {
  fc.assert(
    fc.property(
      countryCode,
      national,
      fc.constantFrom('+xx', '00xx', '0') as fc.Arbitrary<'+xx' | '00xx' | '0'>,
      (cc, n, format) => {
        const forms = numberForms(`0${n}`, cc);
        assert.ok(forms);
        assert.deepEqual(numberForms(forms[format], cc), forms);
      },
    ),
  );
});
