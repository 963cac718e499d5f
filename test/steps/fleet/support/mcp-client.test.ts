import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import {
  callRefused,
  callTool,
  listTools,
  toolFailed,
  toolValue,
} from '../../../../steps/fleet/support/mcp-client.ts';

const READ_WRITE = 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ';
const READ_ONLY = 'demo-anna-read-only-3Hs6PdJ1cR5yF0uE';

test('callTool returns a tool result with its value, and a refused or failing call counts as failed', async () => {
  const fleet = await start({ scryptCost: { N: 1024, r: 8, p: 1 } });
  try {
    await fleet.control.injectEvent({ siteId: 'site-hamburg', module: 'M', subject: 's', severity: 'ERROR' });
    const names = (await listTools(fleet.urls.mcp, READ_WRITE)).map((t) => t.name);
    assert.deepEqual(names.sort(), ['fleet_attention', 'fleet_attention_acknowledge']);

    const listed = await callTool(fleet.urls.mcp, READ_WRITE, 'fleet_attention', {});
    assert.equal(listed.kind, 'result');
    assert.ok(!toolFailed(listed));
    assert.equal(typeof (listed.kind === 'result' ? listed.value : undefined), 'object');

    const unknown = await callTool(fleet.urls.mcp, READ_WRITE, 'fleet_attention_acknowledge', {
      attentionId: 999,
    });
    assert.ok(toolFailed(unknown));
    const missing = await callTool(fleet.urls.mcp, READ_WRITE, 'fleet_attention_acknowledge', {});
    assert.ok(toolFailed(missing));
  } finally {
    await fleet.close();
  }
});

test('toolValue takes structured content first, else the JSON of the text content', () => {
  assert.deepEqual(toolValue({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { b: 2 } }), {
    b: 2,
  });
  assert.deepEqual(toolValue({ content: [{ type: 'text', text: '{"a":1}' }] }), { a: 1 });
  assert.equal(toolValue({ content: [{ type: 'text', text: 'kein JSON' }] }), 'kein JSON');
});

test('MCP-ACK-TOKEN-LEVEL: a level refusal is a refusal of the call, an unknown token is not', async () => {
  const fleet = await start({ scryptCost: { N: 1024, r: 8, p: 1 } });
  try {
    await fleet.control.injectEvent({ siteId: 'site-hamburg', module: 'M', subject: 's', severity: 'ERROR' });
    const read = await callTool(fleet.urls.mcp, READ_ONLY, 'fleet_attention', {});
    assert.ok(!toolFailed(read));
    const refused = await callTool(fleet.urls.mcp, READ_ONLY, 'fleet_attention_acknowledge', {
      attentionId: 1,
    });
    assert.ok(toolFailed(refused));
    assert.ok(callRefused(refused), 'the simulator refuses with isError');
    const unknown = await callTool(fleet.urls.mcp, 'kein-solches-token', 'fleet_attention_acknowledge', {
      attentionId: 1,
    });
    assert.ok(toolFailed(unknown), 'a 401 fails the call');
    assert.deepEqual(unknown.kind === 'refused' && [unknown.via, unknown.stage, unknown.code], [
      'http',
      'connect',
      401,
    ]);
    assert.equal(callRefused(unknown), false, 'but it is no refusal of the call');
  } finally {
    await fleet.close();
  }
});

test('callRefused takes isError, a JSON-RPC error or a 403 on the call, nothing while connecting', () => {
  const refused = (via: 'json-rpc' | 'http' | 'unknown', stage: 'connect' | 'call', code?: number) =>
    callRefused({ kind: 'refused', via, stage, code, message: '' });
  assert.equal(refused('json-rpc', 'call', -32602), true);
  assert.equal(refused('http', 'call', 403), true);
  assert.equal(refused('http', 'call', 401), false);
  assert.equal(refused('http', 'call', 500), false);
  assert.equal(refused('json-rpc', 'connect', -32600), false);
  assert.equal(refused('http', 'connect', 403), false);
  assert.equal(refused('unknown', 'call'), false);
  const result = (isError: boolean) =>
    callRefused({ kind: 'result', isError, value: undefined, result: { content: [] } });
  assert.equal(result(true), true);
  assert.equal(result(false), false);
});
