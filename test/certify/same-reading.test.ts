/** PLUGIN-LOCALE-INDEPENDENT compares the two runs' numbers as readings, not as strings. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameReading } from '../../src/certify/judge-run.ts';

test('a value that moved by its own clock between the two runs is the same reading', () => {
  assert.ok(sameReading('7200', '7201'));
  assert.ok(sameReading('93.9', '93.9'));
  assert.ok(sameReading('U', 'U'));
});

test('a number a locale changed is not the same reading', () => {
  assert.ok(!sameReading('7200', '7.200'), 'a thousands separator read as a decimal point');
  assert.ok(!sameReading('3.14', '3'), 'the decimal part cut off');
  assert.ok(!sameReading('0.5', '5'), 'the decimal point dropped');
  assert.ok(!sameReading('12', 'U'));
  assert.ok(!sameReading('1', '0'));
});
