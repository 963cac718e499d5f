import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findJsonFields, textGives } from '../../../steps/support/snapshot-values.ts';

test('finds a field at any depth, also inside lists', () => {
  const json = { a: { accountsTotal: 5 }, list: [{ accountsTotal: 6 }], accountsTotal: 7 };
  assert.deepEqual(findJsonFields(json, 'accountsTotal').sort(), [5, 6, 7]);
  assert.deepEqual(findJsonFields(json, 'missing'), []);
});

test('a number is given by an equal numeric token, not by a substring', () => {
  assert.equal(textGives('total: 143', 143), true);
  assert.equal(textGives('rtp_jitter_avg_ms: 3.20', 3.2), true);
  assert.equal(textGives('total: 1430', 143), false);
  assert.equal(textGives('latency (12 ms)', 12), true);
});

test('a text is given as a substring; an empty text never is', () => {
  assert.equal(textGives('vm_name: OpenJDK 64-Bit Server VM', 'OpenJDK 64-Bit Server VM'), true);
  assert.equal(textGives('anything', ''), false);
});
