import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { expectedCosts } from '../../../src/runner/expected-costs.ts';
import { CI_LINE_INTERVAL_MS, Progress, scenarioCostKey } from '../../../src/runner/progress.ts';
import { sampleReport } from '../report/sample-report.ts';
import { syntheticEnvelopes } from '../report/synthetic-envelopes.ts';

function capture(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({
    write(chunk, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  return { out, text: () => text };
}

const ENVELOPES = syntheticEnvelopes([
  { name: 'ok', tags: ['@MON-A'], steps: [{ text: 'a', status: 'PASSED' }] },
  {
    name: 'bad',
    tags: ['@MON-B', '@slow'],
    steps: [{ text: 'b', status: 'FAILED', exceptionType: 'AssertionError', message: 'wrong reply\nmore' }],
  },
  {
    name: 'fixture',
    tags: ['@MON-C'],
    steps: [{ text: 'c', status: 'FAILED', exceptionType: 'FixtureError', message: 'no ports' }],
  },
  { name: 'ok too', tags: ['@MON-D'], steps: [{ text: 'd', status: 'PASSED' }] },
]);

test('without a terminal: each failure as it happens, a line every few seconds, a final count', () => {
  const { out, text } = capture();
  let clock = 0;
  const progress = new Progress({ out, tty: false, now: () => clock });
  for (const envelope of ENVELOPES) {
    clock += CI_LINE_INTERVAL_MS / 3;
    progress.onEnvelope(envelope);
  }
  const lines = text().trim().split('\n');
  assert.ok(lines.includes('FAIL MON-B: wrong reply (features/demo.feature)'), text());
  assert.equal(text().includes('MON-C'), false, 'a harness fixture is no failure');
  assert.match(lines.at(-1) ?? '', /^progress: 4\/4 scenarios, 1 failure, \d+ s elapsed$/);
  const progressLines = lines.filter((l) => l.startsWith('progress:'));
  assert.ok(progressLines.length >= 2 && progressLines.length < ENVELOPES.length, text());
});

test('the status has done/total, failures and elapsed, and no guess of the time left without expected costs', () => {
  const { out } = capture();
  let clock = 0;
  const progress = new Progress({ out, tty: true, now: () => clock });
  for (const envelope of ENVELOPES) {
    if (envelope.testCaseFinished) clock += 10_000;
    progress.onEnvelope(envelope);
    if (envelope.testCaseFinished && progress.status().startsWith('2/4')) break;
  }
  assert.equal(progress.status(), '2/4 scenarios, 1 failure, 20 s elapsed');
});

test('the time left comes from the scenarios expected cost, not from a rate of scenarios (issue 29, item 14)', () => {
  // Two slow scenarios first (a certify-plugin run), then two quick ones: a rate of scenarios
  // would say "about 2 min 40 s left" after the first two; the expected costs say about 2 s.
  const cost = (name: string) => scenarioCostKey('features/demo.feature', name);
  const expectedCostMs = new Map([
    [cost('ok'), 80_000],
    [cost('bad'), 80_000],
    [cost('fixture'), 1_000],
    [cost('ok too'), 1_000],
  ]);
  const { out } = capture();
  let clock = 0;
  const progress = new Progress({ out, tty: true, now: () => clock, expectedCostMs });
  const took = [88_000, 88_000, 1_100, 1_100];
  let finished = 0;
  for (const envelope of ENVELOPES) {
    if (envelope.testCaseFinished) clock += took[finished++] ?? 0;
    progress.onEnvelope(envelope);
    if (envelope.testCaseFinished && finished === 2) break;
  }
  // 176 s for 160 s of expected work: the 2 s left take 2.2 s here.
  assert.equal(progress.status(), '2/4 scenarios, 1 failure, 2 min 56 s elapsed, about 2 s left');

  // Costs known for too few of the scenarios left: no estimate.
  const partial = new Progress({
    out,
    tty: true,
    now: () => clock,
    expectedCostMs: new Map([[cost('ok'), 1_000]]),
  });
  for (const envelope of ENVELOPES) {
    partial.onEnvelope(envelope);
    if (envelope.testCaseFinished) break;
  }
  assert.doesNotMatch(partial.status(), /left/);
});

test('expected costs come from the last report in the reports folder, none without one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-costs-'));
  try {
    assert.equal((await expectedCosts(dir)).size, 0);
    const report = sampleReport();
    await writeFile(join(dir, 'compatibility.json'), JSON.stringify(report));
    const costs = await expectedCosts(dir);
    const first = report.interfaces[0]?.clauses[0]?.scenarios[0];
    assert.ok(first);
    assert.equal(costs.get(scenarioCostKey(first.uri, first.name)), first.durationMs);
    await writeFile(join(dir, 'compatibility.json'), 'not json');
    assert.equal((await expectedCosts(dir)).size, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('on a terminal the status line is redrawn in place and failures go above it', () => {
  const { out, text } = capture();
  let clock = 0;
  const progress = new Progress({ out, tty: true, now: () => clock });
  for (const envelope of ENVELOPES) {
    clock += 1_000;
    progress.onEnvelope(envelope);
  }
  assert.ok(text().includes('\r\u001b[2K'));
  assert.match(text(), /FAIL MON-B: wrong reply/);
  assert.ok(
    text().endsWith('4/4 scenarios, 1 failure, 4 s elapsed\n') ||
      /4\/4 scenarios, 1 failure, \d+ s elapsed\n$/.test(text()),
  );
});

test('the elapsed time moves on its own while a long scenario runs, on a terminal and in CI', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  for (const tty of [true, false]) {
    const { out, text } = capture();
    let clock = 0;
    const progress = new Progress({ out, tty, now: () => clock });
    const [first, ...others] = ENVELOPES.filter((e) => !e.testCaseFinished && !e.testRunFinished);
    for (const envelope of [first, ...others]) if (envelope) progress.onEnvelope(envelope);
    // No scenario ends for 12 s: the line still moves.
    for (let second = 1; second <= 12; second++) {
      clock = second * 1_000;
      t.mock.timers.tick(1_000);
    }
    if (tty) assert.match(text(), /0\/4 scenarios, 0 failures, 12 s elapsed$/);
    else {
      assert.match(text(), /^progress: 0\/4 scenarios, 0 failures, 5 s elapsed$/m);
      assert.match(text(), /^progress: 0\/4 scenarios, 0 failures, 10 s elapsed$/m);
    }
    progress.stop();
    const after = text();
    clock = 60_000;
    t.mock.timers.tick(5_000);
    assert.equal(text(), after, 'stopped: nothing more');
  }
});

test('a FAIL line once per clause, not per scenario; a long reason keeps what it says last', () => {
  const long = `blocks come as header, pbx, linux; expected header, linux, pbx, local (sections: ${'<<<x>>> '.repeat(60)}) <<<pbx_sip>>> before <<<df>>>`;
  const envelopes = syntheticEnvelopes([
    { name: 'one', tags: ['@MON-B'], steps: [{ text: 'b', status: 'FAILED', message: 'first reason' }] },
    { name: 'two', tags: ['@MON-B'], steps: [{ text: 'b', status: 'FAILED', message: 'second reason' }] },
    {
      name: 'three',
      tags: ['@MON-B', '@MON-C'],
      steps: [{ text: 'b', status: 'FAILED', message: long }],
    },
  ]);
  const { out, text } = capture();
  const progress = new Progress({ out, tty: false, now: () => 0 });
  for (const envelope of envelopes) progress.onEnvelope(envelope);
  const fails = text()
    .split('\n')
    .filter((line) => line.startsWith('FAIL'));
  assert.equal(fails.length, 2, text());
  assert.equal(fails[0], 'FAIL MON-B: first reason (features/demo.feature)');
  assert.match(
    fails[1] ?? '',
    /^FAIL MON-C: blocks come as header, pbx, linux; expected header, linux, pbx, local/,
  );
  assert.match(fails[1] ?? '', / … .*<<<pbx_sip>>> before <<<df>>> \(features\/demo\.feature\)$/);
  assert.match(text(), /3\/3 scenarios, 3 failures/);
});
