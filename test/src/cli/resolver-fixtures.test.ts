import assert from 'node:assert/strict';
import { test } from 'node:test';
import { harnessHost } from '../../../src/cli/resolver-fixtures.ts';

test('the harness shares the simulator’s loopback address, and a wildcard bind means 127.0.0.1', () => {
  assert.equal(harnessHost('127.0.0.1'), '127.0.0.1');
  assert.equal(harnessHost('127.0.0.5'), '127.0.0.5');
  assert.equal(harnessHost('0.0.0.0'), '127.0.0.1');
  assert.equal(harnessHost('localhost'), '127.0.0.1');
});

test('on any other address the harness’s address as the PBX sees it is unknown', () => {
  assert.equal(harnessHost('192.0.2.10'), null);
  assert.equal(harnessHost('pbx.example'), null);
  assert.equal(harnessHost('127.0.0'), null);
});
