import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EVIDENCE_MEDIA_TYPE,
  MAX_EVIDENCE_CHARS,
  NOT_VERIFIABLE_MEDIA_TYPE,
} from '../../../src/report/attachments.ts';
import { collectScenarioResults } from '../../../src/report/scenario-results.ts';
import { syntheticEnvelopes } from './synthetic-envelopes.ts';

test('reads name, location, tags, status and duration of each scenario', () => {
  const results = collectScenarioResults(
    syntheticEnvelopes([
      { name: 'ok', tags: ['@MON-A'], steps: [{ text: 'a', status: 'PASSED' }], durationMs: 42 },
      { name: 'bad', tags: ['@MON-B', '@slow'], steps: [{ text: 'b', status: 'FAILED', message: 'x' }] },
    ]),
  );
  assert.equal(results.length, 2);
  assert.deepEqual(results[0]?.tags, ['@MON-A']);
  assert.equal(results[0]?.result.name, 'ok');
  assert.equal(results[0]?.result.uri, 'features/demo.feature');
  assert.equal(results[0]?.result.line, 3);
  assert.equal(results[0]?.result.status, 'passed');
  assert.equal(results[0]?.result.durationMs, 42);
  assert.equal(results[1]?.result.line, 13);
  assert.equal(results[1]?.result.status, 'failed');
});

test('names the failing step with its keyword and keeps the message', () => {
  const [only] = collectScenarioResults(
    syntheticEnvelopes([
      {
        name: 'fails',
        tags: ['@MON-A'],
        steps: [
          { text: 'a connection', status: 'PASSED' },
          {
            keyword: 'Then',
            text: 'the reply is text',
            status: 'FAILED',
            message: 'AssertionError: expected',
          },
          { text: 'never', status: 'SKIPPED' },
        ],
      },
    ]),
  );
  assert.deepEqual(only?.result.failure, {
    step: 'Then the reply is text',
    message: 'AssertionError: expected',
  });
});

test('an undefined step is a failure with an explanatory message', () => {
  const [only] = collectScenarioResults(
    syntheticEnvelopes([
      { name: 'u', tags: ['@MON-A'], steps: [{ text: 'nothing matches', status: 'UNDEFINED' }] },
    ]),
  );
  assert.equal(only?.result.status, 'undefined');
  assert.equal(only?.result.failure?.step, 'Given nothing matches');
  assert.match(only?.result.failure?.message ?? '', /no step definition/);
});

test('collects evidence and the not-verifiable reason from attachments, also base64-encoded', () => {
  const [only] = collectScenarioResults(
    syntheticEnvelopes([
      {
        name: 'nv',
        tags: ['@MON-A'],
        steps: [
          {
            text: 'x',
            status: 'SKIPPED',
            attachments: [
              {
                mediaType: EVIDENCE_MEDIA_TYPE,
                body: JSON.stringify({ exchange: 'TCP raw connect', response: 'r' }),
              },
              {
                mediaType: NOT_VERIFIABLE_MEDIA_TYPE,
                body: JSON.stringify({ reason: 'no control plane' }),
                base64: true,
              },
              { mediaType: 'text/plain', body: 'ignored' },
            ],
          },
        ],
      },
    ]),
  );
  assert.equal(only?.result.status, 'skipped');
  assert.equal(only?.result.notVerifiableReason, 'no control plane');
  assert.deepEqual(only?.result.evidence, [{ exchange: 'TCP raw connect', response: 'r' }]);
});

test('malformed and oversized evidence is kept bounded instead of throwing', () => {
  const huge = 'y'.repeat(MAX_EVIDENCE_CHARS * 2);
  const [only] = collectScenarioResults(
    syntheticEnvelopes([
      {
        name: 'm',
        tags: ['@MON-A'],
        steps: [
          {
            text: 'x',
            status: 'PASSED',
            attachments: [
              { mediaType: EVIDENCE_MEDIA_TYPE, body: '{not json' },
              {
                mediaType: EVIDENCE_MEDIA_TYPE,
                body: JSON.stringify({ exchange: 'e', request: huge, details: { huge } }),
              },
            ],
          },
        ],
      },
    ]),
  );
  const evidence = only?.result.evidence ?? [];
  assert.equal(evidence.length, 2);
  assert.equal(evidence[0]?.exchange, '(unreadable evidence attachment)');
  assert.ok((evidence[1]?.request?.length ?? 0) < MAX_EVIDENCE_CHARS + 20);
  assert.ok(JSON.stringify(evidence[1]?.details).length < MAX_EVIDENCE_CHARS + 40);
});

test('only the final attempt of a retried scenario counts', () => {
  const results = collectScenarioResults(
    syntheticEnvelopes([
      { name: 'flaky', tags: ['@MON-A'], steps: [{ text: 'x', status: 'PASSED' }], retriedBefore: true },
    ]),
  );
  assert.equal(results.length, 1);
  assert.equal(results[0]?.result.status, 'passed');
});

test('a step that threw FixtureError makes its scenario not verifiable with the reason, not failed', () => {
  const [fixture, real] = collectScenarioResults(
    syntheticEnvelopes([
      {
        name: 'no ports',
        tags: ['@MON-A'],
        steps: [
          {
            text: 'busy ports',
            status: 'FAILED',
            exceptionType: 'FixtureError',
            message: 'found no 2 ports',
          },
        ],
      },
      {
        name: 'fixture and a real failure',
        tags: ['@MON-B'],
        steps: [
          { text: 'a', status: 'FAILED', exceptionType: 'AssertionError', message: 'wrong reply' },
          { text: 'b', status: 'FAILED', exceptionType: 'FixtureError', message: 'no ports' },
        ],
      },
    ]),
  );
  assert.equal(fixture?.result.status, 'skipped');
  assert.equal(fixture?.result.failure, undefined);
  assert.match(fixture?.result.notVerifiableReason ?? '', /harness fixture: found no 2 ports/);
  assert.equal(real?.result.status, 'failed');
});

test('the failure message is the thrown message, not the stack trace', () => {
  const [only] = collectScenarioResults(
    syntheticEnvelopes([
      {
        name: 'fails',
        tags: ['@MON-A'],
        steps: [{ text: 'a', status: 'FAILED', exceptionType: 'AssertionError', message: 'wrong reply' }],
      },
    ]),
  );
  assert.equal(only?.result.failure?.message, 'wrong reply');
});
