import assert from 'node:assert/strict';
import { test } from 'node:test';
import { derivedIngestKey, parseShard, shardSlice } from '../../../simulators/fleet/shards.ts';

test('--shard takes i/N counting from 1, or N with the index from JOB_COMPLETION_INDEX, and refuses anything else in one line', () => {
  assert.deepEqual(parseShard('3/10', {}), { index: 2, total: 10 });
  assert.deepEqual(parseShard('10/10', {}), { index: 9, total: 10 });
  assert.deepEqual(parseShard('10', { JOB_COMPLETION_INDEX: '7' }), { index: 7, total: 10 });
  assert.throws(() => parseShard('10', {}), /JOB_COMPLETION_INDEX, which is not set/);
  assert.throws(() => parseShard('0/10', {}), /count from 1/);
  assert.throws(() => parseShard('11/10', {}), /one of 1 to 10/);
  assert.throws(() => parseShard('10', { JOB_COMPLETION_INDEX: '10' }), /one of 1 to 10/);
  assert.throws(() => parseShard('a/b', {}), /expected i\/N/);
});

test('the shards of a fleet take contiguous slices that cover every PBX exactly once', () => {
  for (const [count, total] of [
    [100_000, 10],
    [12, 3],
    [7, 3],
    [2, 3],
  ] as const) {
    const seen: number[] = [];
    for (let index = 0; index < total; index++) {
      const { from, to } = shardSlice({ index, total }, count);
      for (let i = from; i < to; i++) seen.push(i);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: count }, (_, i) => i),
      `${count} PBXs in ${total} shards`,
    );
  }
});

test('the ingest key of a site follows from the fleet secret and the site alone', () => {
  const key = derivedIngestKey('s3cret', 'site-demo-9');
  assert.equal(key, derivedIngestKey('s3cret', 'site-demo-9'));
  assert.notEqual(key, derivedIngestKey('s3cret', 'site-demo-10'));
  assert.notEqual(key, derivedIngestKey('other', 'site-demo-9'));
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
});
