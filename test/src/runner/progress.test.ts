import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { CI_LINE_INTERVAL_MS, Progress } from '../../../src/runner/progress.ts';
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

test('the status has done/total, failures, elapsed and an estimate of the time left', () => {
  const { out } = capture();
  let clock = 0;
  const progress = new Progress({ out, tty: true, now: () => clock });
  for (const envelope of ENVELOPES) {
    if (envelope.testCaseFinished) clock += 10_000;
    progress.onEnvelope(envelope);
    if (envelope.testCaseFinished && progress.status().startsWith('2/4')) break;
  }
  assert.equal(progress.status(), '2/4 scenarios, 1 failure, 20 s elapsed, about 20 s left');
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
