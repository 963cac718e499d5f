import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import type { ApiExchange } from '../../../../steps/maintenance/support/api-exchange.ts';
import { allowedAnswers, classifyAnswer } from '../../../../steps/maintenance/support/error-table.ts';

function exchange(status: number, json: unknown): ApiExchange {
  return {
    request: { method: 'GET', path: '/x', auth: { kind: 'none' } },
    url: 'http://127.0.0.1/x',
    response: { statusCode: status } as IncomingMessage as ApiExchange['response'],
    status,
    text: JSON.stringify(json),
    json,
  };
}

test('a request without fault allows only its success answer', () => {
  assert.deepEqual(allowedAnswers({ tokenInvalid: false, path: 'list', method: 'GET' }), ['command-list']);
  assert.deepEqual(allowedAnswers({ tokenInvalid: false, path: 'command', method: 'POST' }), ['accepted']);
});

test('MAINT-UNSPEC-CHECK-ORDER: every error whose condition holds is allowed, and no success', () => {
  assert.deepEqual(allowedAnswers({ tokenInvalid: true, path: 'unknown', method: 'GET' }), [
    'invalid-token',
    'unknown-endpoint',
  ]);
  assert.deepEqual(allowedAnswers({ tokenInvalid: true, path: 'unlisted', method: 'POST' }), [
    'invalid-token',
    'unknown-command',
  ]);
  assert.deepEqual(allowedAnswers({ tokenInvalid: false, path: 'unlisted', method: 'GET' }), [
    'unknown-endpoint',
  ]);
  assert.deepEqual(allowedAnswers({ tokenInvalid: false, path: 'list', method: 'POST' }), [
    'unknown-endpoint',
  ]);
  assert.deepEqual(allowedAnswers({ tokenInvalid: true, path: 'command', method: 'POST' }), [
    'invalid-token',
  ]);
});

test('classifies the rows of the error table by status and body, and nothing else', () => {
  assert.equal(classifyAnswer(exchange(200, { commands: ['A'] })), 'command-list');
  assert.equal(classifyAnswer(exchange(200, { status: 'ok' })), 'accepted');
  assert.equal(
    classifyAnswer(exchange(401, { status: 'error', message: 'invalid or missing API token' })),
    'invalid-token',
  );
  assert.equal(
    classifyAnswer(exchange(404, { status: 'error', message: 'unknown command' })),
    'unknown-command',
  );
  assert.equal(classifyAnswer(exchange(413, { ok: false, error: 'body-too-large' })), 'body-too-large');
  assert.equal(
    classifyAnswer(exchange(500, { status: 'error', message: 'command failed' })),
    'command-failed',
  );
  assert.equal(
    typeof classifyAnswer(exchange(404, { status: 'error', message: 'unknown command!' })),
    'object',
  );
  assert.equal(
    typeof classifyAnswer(exchange(200, { status: 'error', message: 'unknown command' })),
    'object',
  );
  assert.equal(
    typeof classifyAnswer(exchange(429, { status: 'error', message: 'command failed' })),
    'object',
  );
});
