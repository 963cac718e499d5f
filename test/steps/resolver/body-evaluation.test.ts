import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluationTraces } from '../../../steps/resolver/support/body-evaluation.ts';
import type {
  ProviderAttemptView,
  ResolutionAnswer,
  SearchLogEntry,
} from '../../../steps/resolver/support/resolver-control.ts';

function attempt(change: Partial<ProviderAttemptView> = {}): ProviderAttemptView {
  return {
    provider: 'main',
    state: 'failed',
    number: '+49301234567',
    status: 500,
    reason: 'HTTP status 500',
    hint: null,
    name: null,
    variables: [],
    uiValues: {},
    hits: [],
    fromCache: false,
    timing: null,
    ...change,
  };
}

function answer(change: Partial<ResolutionAnswer> = {}): ResolutionAnswer {
  return {
    resolution: 1,
    trigger: 'call',
    state: 'failed',
    source: null,
    name: null,
    uiValues: {},
    attempts: [attempt()],
    ...change,
  };
}

function line(step: SearchLogEntry['step'], message: string): SearchLogEntry {
  return { seq: 1, at: 0, resolution: 1, provider: 'main', level: 'info', step, message, expert: false };
}

const ANNA = { firstName: '', lastName: 'Anna Schmidt', company: '', displayName: 'Anna Schmidt' };

test('RESOLVER-NON-2XX-FAILED: a failed lookup without any evaluation leaves no trace, whatever the log says', () => {
  assert.deepEqual(evaluationTraces(answer({ attempts: [attempt({ variables: ['', ''] })] }), []), []);
  // Log wording is open: a line quoting the body is no evaluation.
  assert.deepEqual(
    evaluationTraces(answer(), [line('response', 'HTTP 500, body {"name":"Anna Schmidt"}')]),
    [],
  );
});

test('RESOLVER-NON-2XX-FAILED: parser hits, index variables, names, UI values and parser lines are traces of an evaluation', () => {
  const traces = evaluationTraces(
    answer({
      name: ANNA,
      uiValues: { '0': 'Anna Schmidt' },
      attempts: [
        attempt({
          hits: [{ index: 0, matched: true, result: 'Anna Schmidt' }],
          variables: ['Anna Schmidt'],
          name: ANNA,
          uiValues: { '0': 'Anna Schmidt' },
        }),
      ],
    }),
    [line('parser', 'parser 0: {0} = "Anna Schmidt"')],
  );
  assert.equal(traces.length, 7, traces.join('\n'));
  for (const word of ['parser hits', 'index variables', 'gave the name', 'UI values', 'parser line'])
    assert.ok(
      traces.some((t) => t.includes(word)),
      `no trace mentions ${word}`,
    );
});
