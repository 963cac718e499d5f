import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HarnessError, oneLineMessage } from '../../../src/core/harness-error.ts';

test('one-line messages include wrapped causes and never span lines', () => {
  const wrapped = new Error('Cucumber errored', { cause: new Error('Tag expression\nis broken') });
  assert.equal(oneLineMessage(wrapped), 'Cucumber errored: Tag expression is broken');
  assert.equal(oneLineMessage('plain'), 'plain');
  assert.equal(oneLineMessage(new Error('')), 'unknown error');
});

test('harness errors always exit 2', () => {
  assert.equal(new HarnessError('port 6556 on 127.0.0.1 is already in use').exitCode, 2);
});
