import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { partsOf } from '../../../../simulators/fleet-controller/controller-parts.ts';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { createFleetMcpServer } from '../../../../simulators/fleet-controller/mcp/fleet-mcp-server.ts';
import { ANNA, assertSchema, basic, FAST_SCRYPT, fleetCore, T0, TOKENS, VERA } from '../fleet-test-kit.ts';

/** The members every open message of `fleet_attention` carries (MCP-ATTENTION-EVENTS). */
const EVENT_MEMBERS = [
  'attentionId',
  'module',
  'subject',
  'description',
  'severity',
  'firstAt',
  'lastAt',
  'occurrences',
] as const;

async function controller() {
  return start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
  if (r.isError) {
    // A refusal carries its error object as text only: structured content would have to match
    // the tool's output schema (MCP-UNSPEC-FAILED-RESULT, docs/fleet-controller.md).
    assert.equal(r.structuredContent, undefined, 'a failed result has no structured content');
    return JSON.parse(text) as Record<string, unknown>;
  }
  assert.deepEqual(JSON.parse(text), r.structuredContent, 'text and structured content agree');
  return r.structuredContent as Record<string, unknown>;
}

async function rest(base: string, path: string, who: { email: string; password: string }, method = 'GET') {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: basic(who) } });
  return { status: res.status, body: res.status === 200 ? await res.json() : undefined };
}

test('MCP-ACK-EXPLICIT-ONLY: both tools are listed; the acknowledge description restricts it to explicit requests', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const client = await connect(fleet.urls.mcp, TOKENS.annaR);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ['fleet_attention', 'fleet_attention_acknowledge']);
  const ack = tools.find((x) => x.name === 'fleet_attention_acknowledge')!;
  assert.match(ack.description ?? '', /ONLY when the user explicitly asks/);
  assert.deepEqual(ack.inputSchema.required, ['attentionId']);
  assert.equal(tools.find((x) => x.name === 'fleet_attention')!.annotations?.readOnlyHint, true);
});

test('MCP-ATTENTION-SITES, MCP-ATTENTION-EVENTS, MCP-ATTENTION-READ-LEVEL, MCP-SAME-DATA-AS-REST: fleet_attention lists the sites with findings and their open messages, as REST does', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  await fleet.control.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'NAS voll',
    severity: 'CRITICAL',
    description: 'Platz schaffen',
    at: T0 - 5,
  });
  await fleet.control.injectEvent({
    siteId: 'site-kiel',
    module: 'Trunks',
    moduleId: 'mod-t',
    subject: 'Trunk down',
    severity: 'WARNING',
    at: T0 - 2,
  });
  await fleet.control.injectEvent({
    siteId: 'site-muenchen',
    module: 'Backup',
    subject: 'south only',
    severity: 'INFO',
  });
  const client = await connect(fleet.urls.mcp, TOKENS.annaR);
  t.after(() => client.close());
  const result = structured(await client.callTool({ name: 'fleet_attention', arguments: {} }));
  const sites = result['sites'] as {
    siteId: string;
    attention: string[];
    events: Record<string, unknown>[];
  }[];
  assert.deepEqual(sites.map((s) => s.siteId).sort(), ['site-bremen', 'site-kiel']);
  const restSites = (await rest(fleet.urls.api, '/api/v1/sites', ANNA)).body as {
    id: string;
    attention: string[];
    attentionEvents: { id: number; subject: string; description?: string }[];
  }[];
  for (const site of sites) {
    const twin = restSites.find((r) => r.id === site.siteId)!;
    assert.deepEqual(site.attention, twin.attention);
    assert.deepEqual(
      site.events.map((e) => e['attentionId']),
      twin.attentionEvents.map((e) => e.id),
    );
    for (const e of site.events) {
      for (const key of EVENT_MEMBERS) {
        assert.ok(key in e, `${key} in ${JSON.stringify(e)}`);
      }
    }
  }
  const kiel = sites.find((s) => s.siteId === 'site-kiel')!.events[0]!;
  assert.equal(kiel['description'], null, 'MCP-UNSPEC-SITE-FIELDS: null without description');
  assert.equal(kiel['moduleId'], 'mod-t');
});

test('MCP-ACK-RESULT, MCP-ACK-HISTORY, MCP-ACK-SAME-AS-REST, MCP-ACK-REPEAT: the acknowledge tool acknowledges for the partner access and writes history with channel mcp', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const injected = await fleet.control.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'NAS voll',
    severity: 'ERROR',
  });
  const id = injected.item!.id;
  await fleet.control.advanceClock({ ms: 42 });
  const client = await connect(fleet.urls.mcp, TOKENS.annaRw);
  t.after(() => client.close());
  const first = await client.callTool({
    name: 'fleet_attention_acknowledge',
    arguments: { attentionId: id, comment: 'per Assistent' },
  });
  assert.notEqual(first.isError, true);
  const body = structured(first);
  assertSchema('acknowledge-result', body);
  assert.deepEqual(body, {
    outcome: 'ok',
    attentionId: id,
    siteId: 'site-bremen',
    alreadyAcknowledged: false,
    acknowledgedAt: T0 + 42,
  });
  const repeat = structured(
    await client.callTool({ name: 'fleet_attention_acknowledge', arguments: { attentionId: id } }),
  );
  assert.equal(repeat['alreadyAcknowledged'], true);
  assert.equal(repeat['outcome'], 'ok');
  const viaRest = await rest(
    fleet.urls.api,
    `/api/v1/sites/site-bremen/attention/${id}/acknowledge`,
    ANNA,
    'POST',
  );
  assert.equal((viaRest.body as { alreadyAcknowledged: boolean }).alreadyAcknowledged, true);
  const history = (await rest(fleet.urls.api, '/api/v1/sites/site-bremen/history', ANNA)).body as Record<
    string,
    unknown
  >[];
  assertSchema('history-list', history);
  assert.equal(history.length, 1);
  assert.equal(history[0]!['channel'], 'mcp');
  assert.equal(history[0]!['actor'], 'Anna Admin');
  assert.deepEqual((history[0]!['attention'] as Record<string, unknown>)['comment'], 'per Assistent');
  // REST first, MCP second: the same acknowledgement the other way round
  const other = await fleet.control.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'zweite',
    severity: 'ERROR',
  });
  await rest(
    fleet.urls.api,
    `/api/v1/sites/site-bremen/attention/${other.item!.id}/acknowledge`,
    ANNA,
    'POST',
  );
  const after = structured(
    await client.callTool({
      name: 'fleet_attention_acknowledge',
      arguments: { attentionId: other.item!.id },
    }),
  );
  assert.equal(after['alreadyAcknowledged'], true);
});

test('MCP-ACK-TOKEN-LEVEL, MCP-ACK-ACCOUNT-LEVEL, MCP-UNSPEC-VIEWER: a read token, a read account or a Viewer cannot acknowledge', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const id = (
    await fleet.control.injectEvent({
      siteId: 'site-bremen',
      module: 'Backup',
      subject: 'x',
      severity: 'ERROR',
    })
  ).item!.id;
  const expectForbidden = async (token: string) => {
    const client = await connect(fleet.urls.mcp, token);
    try {
      const res = await client.callTool({
        name: 'fleet_attention_acknowledge',
        arguments: { attentionId: id },
      });
      assert.equal(res.isError, true);
      assert.equal(structured(res)['error'], 'forbidden');
      // reading still works with the read level
      assert.notEqual((await client.callTool({ name: 'fleet_attention', arguments: {} })).isError, true);
    } finally {
      await client.close();
    }
  };
  await expectForbidden(TOKENS.annaR);
  const veraToken = await fleet.control.issueToken({ accountId: VERA.id, level: 'read-write' });
  await fleet.control.updateAccount({ accountId: VERA.id, level: 'read-write' });
  await expectForbidden(veraToken.token);
  await fleet.control.updateAccount({ accountId: ANNA.id, level: 'read' });
  await expectForbidden(TOKENS.annaRw);
  assert.deepEqual((await fleet.control.items({ siteId: 'site-bremen' }))[0]!.acknowledgedBy, []);
  assert.equal(partsOf(fleet).state.attention.history.length, 0);
});

test('MCP-ACK-ATTENTIONID-REQUIRED, MCP-ACK-COMMENT-MAX, MCP-UNSPEC-FAILED-RESULT: invalid arguments and unknown items fail and acknowledge nothing', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const id = (
    await fleet.control.injectEvent({
      siteId: 'site-bremen',
      module: 'Backup',
      subject: 'x',
      severity: 'ERROR',
    })
  ).item!.id;
  const south = (
    await fleet.control.injectEvent({
      siteId: 'site-muenchen',
      module: 'Backup',
      subject: 'y',
      severity: 'ERROR',
    })
  ).item!.id;
  const client = await connect(fleet.urls.mcp, TOKENS.annaRw);
  t.after(() => client.close());
  const missing = await client.callTool({ name: 'fleet_attention_acknowledge', arguments: {} });
  assert.equal(missing.isError, true);
  const long = await client.callTool({
    name: 'fleet_attention_acknowledge',
    arguments: { attentionId: id, comment: '😀'.repeat(1001) },
  });
  assert.equal(long.isError, true);
  assert.equal(partsOf(fleet).state.attention.history.length, 0);
  for (const attentionId of [id + 100, south]) {
    const res = await client.callTool({ name: 'fleet_attention_acknowledge', arguments: { attentionId } });
    assert.equal(res.isError, true);
    assert.deepEqual(Object.keys(structured(res)).sort(), ['error', 'message']);
    assert.equal(structured(res)['error'], 'not_found');
  }
  const max = await client.callTool({
    name: 'fleet_attention_acknowledge',
    arguments: { attentionId: id, comment: '😀'.repeat(1000) },
  });
  assert.notEqual(max.isError, true);
  // Südwind's own acknowledge of its item is unaffected by Nordlicht's attempts
  const samClient = await connect(fleet.urls.mcp, TOKENS.samRw);
  t.after(() => samClient.close());
  assert.equal(
    structured(
      await samClient.callTool({ name: 'fleet_attention_acknowledge', arguments: { attentionId: south } }),
    )['alreadyAcknowledged'],
    false,
  );
});

test('MCP-UNSPEC-TRANSPORT: without a valid Bearer token the endpoint answers 401; GET answers 405', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (const authorization of [undefined, 'Bearer nope', basic(ANNA)]) {
    const res = await fetch(fleet.urls.mcp, {
      method: 'POST',
      body: init,
      headers: authorization ? { ...headers, authorization } : headers,
    });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
    await res.arrayBuffer();
  }
  const get = await fetch(fleet.urls.mcp, { headers: { authorization: `Bearer ${TOKENS.annaR}` } });
  assert.equal(get.status, 405);
  await get.arrayBuffer();
  const bad = await fetch(fleet.urls.mcp, {
    method: 'POST',
    body: '{',
    headers: { ...headers, authorization: `Bearer ${TOKENS.annaR}` },
  });
  assert.equal(bad.status, 400);
  await bad.arrayBuffer();
});

test('MCP-ATTENTION-EVENTS: the advertised output schema of fleet_attention requires every field of an open message', async (t) => {
  const fleet = await controller();
  t.after(() => fleet.close());
  const client = await connect(fleet.urls.mcp, TOKENS.annaR);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const schema = tools.find((x) => x.name === 'fleet_attention')!.outputSchema as unknown as {
    required: string[];
    properties: {
      sites: { items: { required: string[]; properties: { events: { items: { required: string[] } } } } };
    };
  };
  assert.deepEqual(schema.required, ['sites']);
  const site = schema.properties.sites.items;
  assert.deepEqual(site.required.sort(), ['attention', 'displayName', 'events', 'siteId']);
  for (const field of EVENT_MEMBERS) assert.ok(site.properties.events.items.required.includes(field), field);
  const ack = tools.find((x) => x.name === 'fleet_attention_acknowledge')!.outputSchema as {
    required: string[];
  };
  assert.deepEqual(ack.required.sort(), [
    'acknowledgedAt',
    'alreadyAcknowledged',
    'attentionId',
    'outcome',
    'siteId',
  ]);
});

// Issue 31 §4: every request gets its own McpServer (stateless transport); each built an Ajv of
// its own, a fixed cost of every call.
test('the per-request MCP servers share one JSON Schema validator', async () => {
  const { state } = await fleetCore();
  const caller = { accountId: ANNA.id, tokenId: 'tok' };
  const validatorOf = (server: McpServer) =>
    (server.server as unknown as { _jsonSchemaValidator: unknown })._jsonSchemaValidator;
  const first = validatorOf(createFleetMcpServer(state, caller));
  assert.ok(first);
  assert.equal(validatorOf(createFleetMcpServer(state, caller)), first);
});
