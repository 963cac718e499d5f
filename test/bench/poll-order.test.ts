import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spreadPollOrder } from '../../bench/poll-order.ts';

// Issue 31 §4: the bench's poller walked the PBXs in address order, so one shard process took
// every fetch of the moment. The spread order visits every PBX once per interval, and any second
// of fetches lands on the shards in proportion to their PBXs.
test('the poller visits every PBX once per interval, and each second of fetches spreads over every shard', () => {
  const count = 100_000;
  const shards = 11;
  const perShard = Math.ceil(count / shards);
  const order = spreadPollOrder(count);
  assert.equal(order.length, count);
  assert.equal(new Set(order).size, count, 'each PBX exactly once');
  assert.ok(order.every((i) => i < count));
  assert.deepEqual(spreadPollOrder(count), order, 'the same order on every run');
  // 1,667 fetches a second (every PBX once per 60 s): each shard's share of every such second.
  const second = Math.round(count / 60);
  for (let from = 0; from + second <= count; from += second) {
    const hits = new Array<number>(shards).fill(0);
    for (let k = from; k < from + second; k++) hits[Math.floor(order[k]! / perShard)]!++;
    for (const [shard, n] of hits.entries())
      assert.ok(
        n > 0.5 * (second / shards) && n < 1.6 * (second / shards),
        `second ${from / second}, shard ${shard}: ${n}`,
      );
  }
  assert.deepEqual(spreadPollOrder(0), new Uint32Array(0));
  assert.throws(() => spreadPollOrder(-1), RangeError);
});
