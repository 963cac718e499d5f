import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryKey, ScenarioMemory } from '../../../steps/support/scenario-memory.ts';

const PORT = memoryKey<number>('port');
const portOf = (name: string) => memoryKey<number>(`port:${name}`);

test('a value kept under a key comes back under the same key, and under no other', () => {
  const memory = new ScenarioMemory();
  memory.set(PORT, 6556);
  memory.set(portOf('web'), 443);
  assert.equal(memory.get(PORT), 6556);
  assert.equal(memory.require(portOf('web')), 443);
  assert.equal(memory.get(portOf('other')), undefined);
});

test('require names the key an earlier step should have kept', () => {
  assert.throws(() => new ScenarioMemory().require(PORT), /no "port" kept/);
});
