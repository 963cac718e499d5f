import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { MatcherRunner, matcherThreadListens } from '../../../../simulators/pbx/resolver/matcher-runner.ts';

/** Waits until the matcher thread listens, so the runs below take the thread path. */
async function threadListens(): Promise<void> {
  for (let waited = 0; !matcherThreadListens(); waited += 10) {
    if (waited > 10_000) throw new Error('the matcher thread did not start within 10 s');
    await sleep(10);
  }
}

/** The model: the same pattern run directly on this thread. */
function direct(body: string, source: string, flags: string, countUpTo: number) {
  const first = new RegExp(source, flags).exec(body);
  let count = first ? 1 : 0;
  if (first && countUpTo > 1) {
    const all = new RegExp(source, `${flags}g`);
    count = 0;
    for (let m = all.exec(body); m !== null && count < countUpTo; m = all.exec(body)) {
      count++;
      if (m[0] === '') all.lastIndex++;
    }
  }
  return first ? { groups: Array.from(first, (g) => g ?? null), index: first.index, count } : { count };
}

test('RESOLVER-EVAL-FIRST-MATCH: on the matcher thread, the first match, its groups and the count are those of the pattern run directly', async () => {
  await threadListens();
  const sources = ['"name"\\s*:\\s*"([^"]*)"', '(a)|(b)', '^x(.*?)$', 'a*', '<(\\w+)>(.*?)</\\1>'];
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'b', 'x', '"', ':', ' ', '\n', '<', '>', '/', 'n', 'name') }),
      fc.constantFrom(...sources),
      fc.integer({ min: 1, max: 4 }),
      (body, source, countUpTo) => {
        const run = new MatcherRunner(body, 1000).run(source, 'ms', countUpTo);
        assert.ok(run.ok);
        const model = direct(body, source, 'ms', countUpTo);
        assert.equal(run.count, model.count);
        assert.deepEqual(run.match, 'groups' in model ? { groups: model.groups, index: model.index } : null);
      },
    ),
    { numRuns: 300 },
  );
});

test('on the matcher thread a runaway pattern is stopped at the limit, a broken one says so, and the next run still answers', async () => {
  await threadListens();
  const started = performance.now();
  const slow = new MatcherRunner(`${'a'.repeat(5000)}!`, 100).run('(a|a)+$', '');
  const took = performance.now() - started;
  assert.deepEqual(slow, {
    ok: false,
    reason: 'timeout',
    message: 'the matcher ran longer than 100 ms and was stopped',
  });
  assert.ok(took >= 100 && took < 2_000, `stopped after ${took.toFixed(0)} ms`);
  const broken = new MatcherRunner('x', 100).run('(', '');
  assert.equal(broken.ok, false);
  assert.match(
    broken.ok ? '' : broken.message,
    /^JavaScript cannot compile the matcher: .*Unterminated group/,
  );
  assert.deepEqual(new MatcherRunner('xay', 100).run('a(y)', ''), {
    ok: true,
    match: { groups: ['ay', 'y'], index: 1 },
    count: 1,
  });
  await threadListens();
  assert.deepEqual(new MatcherRunner('xay', 100).run('a(y)', ''), {
    ok: true,
    match: { groups: ['ay', 'y'], index: 1 },
    count: 1,
  });
});
