import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { joinProblems, nearestKey, strictValidator } from '../../../src/core/strict-schema.ts';

test('the nearest declared key is suggested only when it is close enough to be a typo', () => {
  const keys = ['maintenance', 'fleet', 'resolver', 'pbx', 'name'];
  assert.equal(nearestKey('maintainance', keys), 'maintenance');
  assert.equal(nearestKey('Fleet', keys), 'fleet');
  assert.equal(nearestKey('resovler', keys), 'resolver');
  assert.equal(nearestKey('monitoring', keys), undefined);
  assert.equal(nearestKey('x', []), undefined);
});

test('every problem is listed, unknown keys with their suggestion, in one line', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strict-schema-'));
  try {
    const path = join(dir, 'schema.json');
    await writeFile(
      path,
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          mode: { enum: ['a', 'b'] },
          inner: { type: 'object', properties: { port: { type: 'integer' } }, additionalProperties: false },
        },
        additionalProperties: false,
      }),
    );
    const verdict = strictValidator(path).validate({ nme: 'x', mode: 'c', inner: { prot: 1 } });
    assert.equal(verdict.ok, false);
    const problems = verdict.ok ? [] : verdict.problems;
    assert.deepEqual(problems.sort(), [
      "/ must have required property 'name'",
      '/mode must be one of "a", "b"',
      'unknown key "nme" at / (did you mean "name"?)',
      'unknown key "prot" at /inner (did you mean "port"?)',
    ]);
    assert.match(joinProblems(problems), /^4 problems: .*; .*; .*; /);
    assert.equal(joinProblems(['only one']), 'only one');
    assert.deepEqual(strictValidator(path).validate({ name: 'ok', inner: { port: 1 } }), { ok: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
