import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ExternalClientError,
  externalClientDisabled,
  inspectorOutcome,
} from '../../../../steps/fleet/support/external-mcp-client.ts';

const run = (exitCode: number, stdout: string, stderr = '') => ({
  command: 'npx …',
  exitCode,
  stdout,
  stderr,
});

test('the external client runs only when PBX_CONFORMANCE_EXTERNAL_MCP is 1', () => {
  assert.equal(externalClientDisabled({ PBX_CONFORMANCE_EXTERNAL_MCP: '1' }), null);
  assert.match(externalClientDisabled({}) ?? '', /PBX_CONFORMANCE_EXTERNAL_MCP=1/);
  assert.match(externalClientDisabled({ PBX_CONFORMANCE_EXTERNAL_MCP: 'yes' }) ?? '', /runs only with/);
});

test('a printed tool result is a result; its structured content is the value', () => {
  const printed = JSON.stringify({
    content: [{ type: 'text', text: '{"a":1}' }],
    structuredContent: { a: 1 },
  });
  const outcome = inspectorOutcome(run(0, printed));
  assert.equal(outcome.kind, 'result');
  assert.deepEqual(outcome.kind === 'result' ? outcome.value : undefined, { a: 1 });
});

test('MCP-UNSPEC-FAILED-RESULT: a tool call the client reports as failed is a refused call', () => {
  const outcome = inspectorOutcome(
    run(1, '', 'Failed to call tool fleet_attention_acknowledge: MCP error -32602: …'),
  );
  assert.equal(outcome.kind, 'refused');
});

test('a run that failed for other reasons is a harness error, never a verdict', () => {
  assert.throws(() => inspectorOutcome(run(1, '', 'npm ERR! code E404')), ExternalClientError);
  assert.throws(() => inspectorOutcome(run(0, 'not json')), ExternalClientError);
});
