import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessagePort } from 'node:worker_threads';
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
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: fc.constantFrom('a', 'b', 'x', '"', ':', ' ', '\n', '<', '>', '/', 'n', 'name') }),
      fc.constantFrom(...sources),
      fc.integer({ min: 1, max: 4 }),
      async (body, source, countUpTo) => {
        const run = await new MatcherRunner(body, 1000).run(source, 'ms', countUpTo);
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
  const slow = await new MatcherRunner(`${'a'.repeat(5000)}!`, 100).run('(a|a)+$', '');
  const took = performance.now() - started;
  assert.deepEqual(slow, {
    ok: false,
    reason: 'timeout',
    message: 'the matcher ran longer than 100 ms and was stopped',
  });
  assert.ok(took >= 100 && took < 2_000, `stopped after ${took.toFixed(0)} ms`);
  const broken = await new MatcherRunner('x', 100).run('(', '');
  assert.equal(broken.ok, false);
  assert.match(
    broken.ok ? '' : broken.message,
    /^JavaScript cannot compile the matcher: .*Unterminated group/,
  );
  assert.deepEqual(await new MatcherRunner('xay', 100).run('a(y)', ''), {
    ok: true,
    match: { groups: ['ay', 'y'], index: 1 },
    count: 1,
  });
  await threadListens();
  assert.deepEqual(await new MatcherRunner('xay', 100).run('a(y)', ''), {
    ok: true,
    match: { groups: ['ay', 'y'], index: 1 },
    count: 1,
  });
});

test('while the matcher thread runs a pattern this thread serves other work, and the limit still stops a runaway', async () => {
  await threadListens();
  const started = performance.now();
  const pending = new MatcherRunner(`${'a'.repeat(5000)}!`, 300).run('(a|a)+$', '');
  let turnedAt = 0;
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      turnedAt = performance.now() - started;
      resolve();
    }, 20),
  );
  const slow = await pending;
  const took = performance.now() - started;
  assert.ok(turnedAt < 250, `the event loop turned only after ${turnedAt.toFixed(0)} ms`);
  assert.equal(slow.ok ? 'ok' : slow.reason, 'timeout');
  assert.ok(took >= 300 && took < 2_000, `stopped after ${took.toFixed(0)} ms`);
});

test('runs sent at once answer in their own right; one queued behind a runaway is not charged for its time', async () => {
  await threadListens();
  const runs = ['xay', 'xby', 'xcy'].map((body) => new MatcherRunner(body, 1000).run('x(.)y', ''));
  assert.deepEqual(
    (await Promise.all(runs)).map((r) => (r.ok ? r.match?.groups[1] : r.reason)),
    ['a', 'b', 'c'],
  );
  await threadListens();
  const runaway = new MatcherRunner(`${'a'.repeat(5000)}!`, 150).run('(a|a)+$', '');
  const behind = new MatcherRunner('xay', 150).run('a(y)', '');
  const [slow, quick] = await Promise.all([runaway, behind]);
  assert.equal(slow.ok ? 'ok' : slow.reason, 'timeout');
  assert.deepEqual(quick, { ok: true, match: { groups: ['ay', 'y'], index: 1 }, count: 1 });
});

test('the runs asked for in one turn go to the matcher thread as one message, each answered in its own right (issue 31 §3)', async (t) => {
  await threadListens();
  const posted: unknown[] = [];
  const original = MessagePort.prototype.postMessage;
  t.mock.method(
    MessagePort.prototype,
    'postMessage',
    function (this: MessagePort, value: unknown, ...rest: []) {
      posted.push(value);
      return original.call(this, value, ...rest);
    },
  );
  const bodies = ['xay', 'xby', 'xcy', 'nothing', 'xdy'];
  const runs = bodies.map((body) => new MatcherRunner(body, 1000).run('x(.)y', ''));
  const answers = await Promise.all(runs);
  t.mock.restoreAll();
  assert.deepEqual(
    answers.map((r) => (r.ok ? (r.match?.groups[1] ?? null) : r.reason)),
    ['a', 'b', 'c', null, 'd'],
  );
  assert.equal(posted.length, 1, 'one message for the five runs of the turn');
  assert.equal((posted[0] as unknown[]).length, 5);
});

test('a runaway in the middle of one message is stopped at its limit; the runs before and after it still answer', async () => {
  await threadListens();
  const started = performance.now();
  const runs = [
    new MatcherRunner('xay', 150).run('a(y)', ''),
    new MatcherRunner(`${'a'.repeat(5000)}!`, 150).run('(a|a)+$', ''),
    new MatcherRunner('xby', 150).run('b(y)', ''),
  ];
  const [before, slow, after] = await Promise.all(runs);
  const took = performance.now() - started;
  assert.equal(slow?.ok ? 'ok' : slow?.reason, 'timeout');
  assert.ok(took >= 150 && took < 2_000, `stopped after ${took.toFixed(0)} ms`);
  assert.deepEqual(before, { ok: true, match: { groups: ['ay', 'y'], index: 1 }, count: 1 });
  assert.deepEqual(after, { ok: true, match: { groups: ['by', 'y'], index: 1 }, count: 1 });
});
