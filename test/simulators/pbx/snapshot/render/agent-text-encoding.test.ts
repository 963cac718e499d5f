import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  encodeBareToken,
  encodeToken,
  encodeValue,
  sanitiseCheckText,
  sanitiseServiceName,
} from '../../../../../simulators/pbx/snapshot/render/agent-text-encoding.ts';
import { formatNumber } from '../../../../../simulators/pbx/snapshot/render/text-safety.ts';
import { decodeToken, decodeValue } from '../../../../../src/agent-text/decode-value.ts';
import { nastyString, PROPERTY_RUN } from './state-arbitrary.ts';

const wf = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

test('ordinary values are written unchanged', () => {
  assert.equal(encodeValue('Simulated Systems GmbH'), 'Simulated Systems GmbH');
  assert.equal(encodeToken('192.0.2.6:/Backup'), '192.0.2.6:/Backup');
  assert.equal(encodeToken(''), '-');
  assert.equal(encodeBareToken(''), '');
  assert.equal(encodeValue('50% <<<x>>>\n'), '50%25 %3C%3C%3Cx>>>%0A');
  assert.equal(encodeToken('a b[c]'), 'a%20b%5Bc%5D');
});

test('encoded values are one line without <<< and decode back to the value', () => {
  fc.assert(
    fc.property(nastyString(20), (raw) => {
      for (const [encoded, decoded] of [
        [encodeValue(raw), (s: string) => decodeValue(s)],
        [encodeToken(raw), (s: string) => decodeToken(s)],
        [encodeBareToken(raw), (s: string) => decodeValue(s)],
      ] as const) {
        assert.doesNotMatch(encoded, /[\u0000-\u001f\u007f\u0085\u2028\u2029]|<<<|^ | $/);
        assert.equal(decoded(wf(encoded)), wf(raw));
      }
      assert.doesNotMatch(encodeToken(raw), /[ [\]]/);
    }),
    PROPERTY_RUN,
  );
});

test('service names and check texts are safe and sanitising twice changes nothing', () => {
  fc.assert(
    fc.property(nastyString(20), (raw) => {
      const name = sanitiseServiceName(raw);
      assert.doesNotMatch(name, /["'\u0000-\u001f\u2028\u2029]|<<<|^\s|\s$/);
      assert.equal(sanitiseServiceName(name), name);
      const text = sanitiseCheckText(raw);
      assert.doesNotMatch(text, /[\u0000-\u001f\u2028\u2029]|<<<|^\s|\s$/);
      assert.equal(sanitiseCheckText(text), text);
    }),
    PROPERTY_RUN,
  );
});

test('numbers are written without exponent and read back exactly', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      const text = formatNumber(n);
      assert.match(text, /^-?\d+(\.\d+)?$/);
      assert.equal(Number(text), Object.is(n, -0) ? 0 : n);
    }),
    PROPERTY_RUN,
  );
  assert.equal(formatNumber(Number.NaN), '-1');
  assert.equal(formatNumber(1e21), '1000000000000000000000');
  assert.equal(formatNumber(-2.5e-8), '-0.000000025');
});
