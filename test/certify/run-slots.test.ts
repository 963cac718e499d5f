import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCatalog } from '../../src/catalog/load-catalog.ts';
import { certifyPlugin, RunSlots, type StageTimes } from '../../src/certify/certify.ts';
import { scenarioCatalog } from '../../src/certify/scenario-catalog.ts';
import { tempDir, throwawayPlugin } from './support.ts';

/*
 * Issue 31 §1, §2: a certification's runs take turns for the run slots (two at a time), the
 * results keep the plan's order whatever order the runs end in, and the stages' times are kept
 * for the bench. How fast that is belongs to `npm run bench -- certify`, not here.
 */

/** Slots that remember the most tasks they held at once. */
class CountingSlots extends RunSlots {
  most = 0;
  started: number[] = [];
  override async run<T>(task: () => Promise<T>): Promise<T> {
    return super.run(async () => {
      this.most = Math.max(this.most, this.load().active);
      this.started.push(this.load().active);
      return task();
    });
  }
}

test('RunSlots holds at most its limit at once and hands a freed slot to the first waiting task', async () => {
  const slots = new RunSlots(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const gates: (() => void)[] = [];
  const tasks = [0, 1, 2, 3, 4].map((i) =>
    slots.run(async () => {
      order.push(i);
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running -= 1;
      return i * 10;
    }),
  );
  for (let i = 0; i < 5; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(running <= 2, `${running} tasks at once`);
    gates.shift()?.();
  }
  assert.deepEqual(await Promise.all(tasks), [0, 10, 20, 30, 40]);
  assert.equal(most, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.deepEqual(slots.load(), { active: 0, waiting: 0 });
  assert.throws(() => new RunSlots(0), /not a count/);
});

test('RunSlots frees the slot of a task that rejects', async () => {
  const slots = new RunSlots(1);
  await assert.rejects(
    slots.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await slots.run(async () => 7), 7);
  assert.deepEqual(slots.load(), { active: 0, waiting: 0 });
});

test('a certification runs its scenarios and generated states two at a time, in the plan order, and times its stages', async (t) => {
  const dir = await tempDir(t);
  // Later scenarios end first: the first run sleeps longest.
  const plugin = await throwawayPlugin(
    dir,
    'check.sh',
    '#!/bin/sh\ncase "$1" in *.1) sleep 0.4;; esac\necho "PBX OK - fine | a=1"\n',
  );
  const catalog = await loadCatalog();
  const slots = new CountingSlots(2);
  const stages: StageTimes = { pbxStartMs: 0, pluginRunMs: 0, judgingMs: 0 };
  const names = ['healthy', 'ram-warning', 'ram-critical', 'large'];
  const result = await certifyPlugin({
    argv: [plugin, '{host}', '{port}'],
    expectations: null,
    scenarios: names.map((name) => scenarioCatalog().find((s) => s.name === name) as never),
    runs: 2,
    seed: 19,
    timeoutMs: 15_000,
    cwd: dir,
    env: process.env,
    levels: new Map(catalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
    reportsDir: dir,
    replayCommand: (file) => file,
    extraRuns: false,
    slots,
    stages,
  });
  assert.deepEqual(
    result.runs.map((r) => r.run),
    [...names, 'generated #1', 'generated #2'],
  );
  assert.ok(
    result.runs.every((r) => r.evidence?.exitCode === 0),
    JSON.stringify(result.runs.map((r) => r.harnessProblem ?? r.evidence?.stderr)),
  );
  assert.equal(slots.most, 2, 'the runs never went two at a time');
  assert.equal(slots.started.length, 6, 'every run takes a slot');
  assert.deepEqual(slots.load(), { active: 0, waiting: 0 });
  for (const [stage, ms] of Object.entries(stages)) assert.ok(ms > 0, `no time in the stage ${stage}`);
});

test('the runs start before the clause levels are known; the judge stage takes them from the promise', {
  timeout: 30_000,
}, async (t) => {
  const dir = await tempDir(t);
  const plugin = await throwawayPlugin(dir, 'check.sh', '#!/bin/sh\necho "PBX OK - fine | a=1"\n');
  let levelsAsked = false;
  let giveLevels: () => void = () => undefined;
  // Given only once a run has started: a certification that waited for them first would hang.
  const levels = new Promise<ReadonlyMap<string, 'must' | 'should'>>((resolve) => {
    giveLevels = () => resolve(new Map([['PLUGIN-EXIT-CODE', 'should']]));
  }).finally(() => {
    levelsAsked = true;
  });
  const result = await certifyPlugin({
    argv: [plugin, '{host}', '{port}'],
    expectations: null,
    scenarios: scenarioCatalog().filter((s) => s.name === 'healthy'),
    runs: 0,
    seed: 19,
    timeoutMs: 15_000,
    cwd: dir,
    env: process.env,
    levels,
    reportsDir: dir,
    replayCommand: (file) => file,
    extraRuns: false,
    slots: new RunSlots(2),
    progress: () => giveLevels(),
  });
  assert.ok(levelsAsked);
  assert.deepEqual(
    result.runs.map((r) => r.run),
    ['healthy'],
  );
  assert.equal(result.clauses.find((c) => c.id === 'PLUGIN-EXIT-CODE')?.level, 'should');
  assert.equal(result.clauses.find((c) => c.id === 'PLUGIN-NO-CRASH')?.level, 'must');
});
