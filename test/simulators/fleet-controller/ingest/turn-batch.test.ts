import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnBatch } from '../../../../simulators/fleet-controller/ingest/turn-batch.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('items added in one turn are handed over together, after the turn', async () => {
  const runs: number[][] = [];
  const batch = new TurnBatch<number>((items) => runs.push(items), 100);
  batch.add(1);
  batch.add(2);
  batch.add(3);
  assert.deepEqual(runs, [], 'nothing before the turn ends');
  await nextTurn();
  assert.deepEqual(runs, [[1, 2, 3]]);
  batch.add(4);
  await nextTurn();
  assert.deepEqual(runs, [[1, 2, 3], [4]]);
});

test('reaching the bound hands the batch over at once', async () => {
  const runs: number[][] = [];
  const batch = new TurnBatch<number>((items) => runs.push(items), 3);
  for (let i = 1; i <= 7; i++) batch.add(i);
  assert.deepEqual(runs, [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  await nextTurn();
  assert.deepEqual(runs.at(-1), [7]);
});

test('flush hands over what waits and cancels the scheduled run', async () => {
  const runs: number[][] = [];
  const batch = new TurnBatch<number>((items) => runs.push(items), 100);
  batch.flush();
  assert.deepEqual(runs, [], 'an empty batch is not run');
  batch.add(1);
  batch.flush();
  assert.deepEqual(runs, [[1]]);
  await nextTurn();
  assert.deepEqual(runs, [[1]], 'no second run');
});

test('reaching the weight bound hands the batch over at once', () => {
  const runs: string[][] = [];
  const batch = new TurnBatch<string>((items) => runs.push(items), 100, 10);
  batch.add('abcd', 4);
  batch.add('efgh', 4);
  assert.deepEqual(runs, []);
  batch.add('ij', 2);
  assert.deepEqual(runs, [['abcd', 'efgh', 'ij']]);
  batch.flush();
  assert.equal(runs.length, 1);
});
