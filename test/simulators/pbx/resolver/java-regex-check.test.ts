import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readJavaRegex } from '../../../../simulators/pbx/resolver/java-regex-check.ts';

const kinds = (pattern: string) => readJavaRegex(pattern).notes.map((n) => `${n.kind} ${n.construct}`);

test('a plain matcher reads the same in both languages, with flags s and m', () => {
  assert.deepEqual(readJavaRegex('"name":"(.*?)"'), { source: '"name":"(.*?)"', flags: 'sm', notes: [] });
  assert.deepEqual(kinds('<td>([^<]*)</td>\\s+\\d{2,3}'), []);
});

test('constructs JavaScript cannot run are flagged', () => {
  assert.deepEqual(kinds('(\\w++)'), ['cannot-run ++']);
  assert.deepEqual(kinds('a*+'), ['cannot-run *+']);
  assert.deepEqual(kinds('(?>a|b)'), ['cannot-run (?>']);
  assert.deepEqual(kinds('\\p{javaLowerCase}'), ['cannot-run \\p{javaLowerCase}']);
  assert.deepEqual(kinds('x(?i)y'), ['cannot-run (?i)']);
  assert.deepEqual(kinds('\\Gx'), ['cannot-run \\G']);
});

test('constructs Java refuses are flagged: a dangling {, bad group names, unbounded lookbehind', () => {
  assert.deepEqual(kinds('{"name":"(.*?)"'), ['java-rejects {']);
  assert.deepEqual(kinds('(?<first_name>x)'), ['java-rejects (?<first_name>']);
  assert.deepEqual(kinds('(?<=a+)b'), ['java-rejects (?<=…*)']);
});

test('constructs that differ are flagged; exact equivalents are translated', () => {
  assert.deepEqual(kinds('[a-z&&[^q]]'), ['differs &&', 'differs […[…]…]']);
  assert.deepEqual(kinds('(?i)\\Ax\\z\\Z\\h\\R\\e'), [
    'translated (?i)',
    'translated \\A',
    'translated \\z',
    'translated \\Z',
    'translated \\h',
    'translated \\R',
    'translated \\e',
  ]);
  assert.equal(readJavaRegex('(?i)x').flags, 'smi');
  assert.ok(new RegExp(readJavaRegex('\\x{1F600}').source).test('😀'));
});
