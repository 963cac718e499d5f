import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HarnessError, oneLineMessage } from '../../../src/cli/harness-error.ts';

test('one-line messages include wrapped causes and never span lines', () => {
  const wrapped = new Error('Cucumber errored', { cause: new Error('Tag expression\nis broken') });
  assert.equal(oneLineMessage(wrapped), 'Cucumber errored: Tag expression is broken');
  assert.equal(oneLineMessage('plain'), 'plain');
  assert.equal(oneLineMessage(new Error('')), 'unknown error');
});

test('harness errors default to exit code 2', () => {
  assert.equal(new HarnessError('x').exitCode, 2);
  assert.equal(new HarnessError('busy', 1).exitCode, 1);
});
