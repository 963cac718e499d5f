import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLocalLine } from '../../../src/agent-text/parse-local-line.ts';

function ok(line: string) {
  const parsed = parseLocalLine(line);
  if ('error' in parsed) assert.fail(`${line}: ${parsed.error}`);
  return parsed;
}

test('reads status, quoted name, metrics and text', () => {
  const parsed = ok('1 "PBX Fax Queue" queued=6;5;10;0 6 faxes queued');
  assert.equal(parsed.status, 1);
  assert.equal(parsed.name, 'PBX Fax Queue');
  assert.equal(parsed.nameQuoting, 'double');
  assert.deepEqual(parsed.metrics, [{ name: 'queued', value: 6, warn: 5, crit: 10, min: 0 }]);
  assert.equal(parsed.text, '6 faxes queued');
});

test('accepts bare names, P, no metrics, no text, units, ranges and several metrics', () => {
  assert.equal(ok('P Some_Service - computed').status, 'P');
  assert.equal(ok('0 Service_FOO V=1').text, '');
  assert.equal(ok("3 'single quoted' - x").name, 'single quoted');
  assert.deepEqual(ok('2 x a=5;3:7;2:8;1;9|b=16MB;;;0 t').metrics, [
    { name: 'a', value: 5, warn: 7, warnLower: 3, crit: 8, critLower: 2, min: 1, max: 9 },
    { name: 'b', value: 16, unit: 'MB', min: 0 },
  ]);
});

test('a literal \\n in the text starts the long output', () => {
  const parsed = ok('0 "x" - summary\\nline one\\nline two');
  assert.equal(parsed.summary, 'summary');
  assert.equal(parsed.details, 'line one\nline two');
  assert.equal(parsed.text, 'summary\\nline one\\nline two');
});

test('a cached(...) prefix is read', () => {
  assert.deepEqual(ok('cached(1700000000,300) 0 "x" - y').cached, { since: 1_700_000_000, interval: 300 });
});

test('lines outside the grammar give an error', () => {
  for (const line of [
    '',
    '4 "x" - bad state',
    'OK "x" - bad state',
    '0 "x"y" - quote inside',
    '0 "it\'s" - apostrophe inside',
    '0 "x"',
    '0 "x" noequals text',
    '0 "x" a b=1 metric without value',
    '0 "x" my:metric=1 colon in metric name',
    '0 "x" a/b=1 slash in metric name',
    '0 "x" a=1;2;3;4;5;6 too many fields',
    '0 "x" a=1;x text',
    '0  "x" - two spaces',
  ]) {
    assert.ok('error' in parseLocalLine(line), line);
  }
});
