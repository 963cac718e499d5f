import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { callTool, listTools, toolFailed, toolValue } from '../../../../steps/fleet/support/mcp-client.ts';

const READ_WRITE = 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ';

test('callTool returns a tool result with its value, and a refused or failing call counts as failed', async () => {
  const fleet = await start({ scryptCost: { N: 1024, r: 8, p: 1 } });
  try {
    await fleet.control.injectEvent('site-hamburg', { module: 'M', subject: 's', severity: 'ERROR' });
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
