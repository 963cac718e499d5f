import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestLogEntry } from '../../../simulators/fleet-controller/api/api-core.ts';
import { partsOf } from '../../../simulators/fleet-controller/controller-parts.ts';
import { start } from '../../../simulators/fleet-controller/index.ts';
import { ANNA, basic, FAST_SCRYPT, SAM, T0, TOKENS, TOM, VERA } from './fleet-test-kit.ts';

test('start binds 127.0.0.1 on ephemeral ports and reports the URLs', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT });
  t.after(() => fleet.close());
  assert.match(fleet.urls.api, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(fleet.urls.mcp, `${fleet.urls.api}/mcp`);
  assert.match(fleet.urls.control, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(fleet.urls.ingest, /^tcp:\/\/127\.0\.0\.1:\d+$/);
  const res = await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: basic(ANNA) } });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
});

test('FLEET-ACK-HISTORY-ONCE: concurrent acknowledgements of one item over HTTP produce exactly one history entry', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const { item } = await injectBremenBackup(fleet);
  const url = `${fleet.urls.api}/api/v1/sites/site-bremen/attention/${item!.id}/acknowledge`;
  const callers = [ANNA, TOM, ANNA, TOM, SAM, SAM, ANNA, TOM, SAM, ANNA];
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: basic(callers[i % callers.length]!), 'content-type': 'application/json' },
        body: JSON.stringify({ comment: `Versuch ${i}` }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { alreadyAcknowledged: boolean },
        who: callers[i % callers.length]!,
      })),
    ),
  );
  assert.ok(results.every((r) => r.status === 200));
  for (const partner of [[ANNA, TOM], [SAM]]) {
    const mine = results.filter((r) => partner.includes(r.who));
    assert.equal(
      mine.filter((r) => !r.body.alreadyAcknowledged).length,
      1,
      'one first acknowledgement per partner access',
    );
  }
  const history = partsOf(fleet).state.attention.history;
  assert.equal(history.length, 2);
  assert.deepEqual(new Set(history.map((h) => h.partnerId)), new Set(['p-nordlicht', 'p-suedwind']));
});

test('passwords are stored as hashes; tokens and passwords never appear in the request log', async (t) => {
  const lines: string[] = [];
  const fleet = await start({
    scryptCost: FAST_SCRYPT,
    clock: { start: T0 },
    log: (entry: RequestLogEntry) => lines.push(JSON.stringify(entry)),
  });
  t.after(() => fleet.close());
  const secrets = [
    ANNA.password,
    TOM.password,
    VERA.password,
    SAM.password,
    TOKENS.annaRw,
    TOKENS.annaR,
    TOKENS.samRw,
    'wrong-password-XYZ',
    'unknown-token-XYZ',
  ];
  await injectBremenBackup(fleet);
  for (const who of [ANNA, VERA, { ...ANNA, password: 'wrong-password-XYZ' }]) {
    const r = await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: basic(who) } });
    await r.arrayBuffer();
  }
  const ack = await fetch(`${fleet.urls.api}/api/v1/sites/site-bremen/attention/1/acknowledge`, {
    method: 'POST',
    headers: { authorization: basic(VERA) },
  });
  await ack.arrayBuffer();
  for (const token of [TOKENS.annaRw, 'unknown-token-XYZ']) {
    const client = new Client({ name: 'log-test', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(fleet.urls.mcp), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      await client.callTool({ name: 'fleet_attention', arguments: {} });
    } catch {
      // the unknown token is refused with 401
    } finally {
      await client.close();
    }
  }
  const issued = await fleet.control.issueToken({ accountId: ANNA.id, level: 'read' });
  const created = await fleet.control.addAccount({
    email: 'neu@nordlicht.example',
    name: 'Neu',
    role: 'Admin',
    partnerId: 'p-nordlicht',
    password: 'Klartext-789',
  });
  secrets.push(issued.token, 'Klartext-789');
  const log = lines.join('\n');
  assert.ok(lines.some((l) => l.includes('"face":"api"')) && lines.some((l) => l.includes('"face":"mcp"')));
  assert.ok(lines.some((l) => l.includes('"status":401')));
  for (const secret of secrets)
    assert.ok(!log.includes(secret), `a secret is in the log: ${secret.slice(0, 4)}…`);
  const state = partsOf(fleet).state;
  const stored = JSON.stringify({
    accounts: [...state.access.accounts.values()],
    tokens: [...state.access.tokens.values()],
  });
  for (const secret of secrets) assert.ok(!stored.includes(secret), 'a clear secret is stored');
  assert.match(state.access.requireAccount(created.id).passwordHash ?? '', /^scrypt\$/);
});

test('bodies over the bound get 413 with an error object, never a crash', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const { item } = await fleet.control.injectEvent({
    siteId: 'site-kiel',
    module: 'M',
    subject: 's',
    severity: 'INFO',
  });
  const huge = JSON.stringify({ comment: 'x'.repeat(70 * 1024) });
  const res = await fetch(`${fleet.urls.api}/api/v1/sites/site-kiel/attention/${item!.id}/acknowledge`, {
    method: 'POST',
    headers: { authorization: basic(ANNA), 'content-type': 'application/json' },
    body: huge,
  });
  assert.equal(res.status, 413);
  assert.equal(((await res.json()) as { error: string }).error, 'payload_too_large');
  const mcp = await fetch(fleet.urls.mcp, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKENS.annaR}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: 'x'.repeat(1024 * 1024 + 1),
  });
  assert.equal(mcp.status, 413);
  await mcp.arrayBuffer();
  assert.equal(partsOf(fleet).state.attention.history.length, 0);
  const still = await fetch(`${fleet.urls.api}/api/v1/sites`, { headers: { authorization: basic(ANNA) } });
  assert.equal(still.status, 200);
  await still.arrayBuffer();
});

// RFC 9110 §8.6: a HEAD answer that carries Content-Length must carry the GET's length. The
// controller answered HEAD with `Content-Length: 0`, which tells a client the list is empty.
test('HEAD of the site list and of a history carries the Content-Length of the GET it stands for', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const { item } = await injectBremenBackup(fleet);
  const ack = await fetch(`${fleet.urls.api}/api/v1/sites/site-bremen/attention/${item!.id}/acknowledge`, {
    method: 'POST',
    headers: { authorization: basic(ANNA), 'content-type': 'application/json' },
    body: JSON.stringify({ comment: 'gesehen' }),
  });
  assert.equal(ack.status, 200);
  await ack.arrayBuffer();
  for (const path of ['/api/v1/sites', '/api/v1/sites/site-bremen/history']) {
    const get = await fetch(`${fleet.urls.api}${path}`, { headers: { authorization: basic(ANNA) } });
    const bytes = Buffer.from(await get.arrayBuffer());
    assert.equal(get.status, 200, path);
    assert.ok(bytes.length > 2, `${path} has content`);
    const head = await fetch(`${fleet.urls.api}${path}`, {
      method: 'HEAD',
      headers: { authorization: basic(ANNA) },
    });
    assert.equal(head.status, 200, path);
    assert.equal(head.headers.get('content-length'), String(bytes.length), path);
    assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), path);
    assert.equal(head.headers.get('etag'), get.headers.get('etag'), path);
    assert.equal((await head.arrayBuffer()).byteLength, 0, path);
  }
});

/** The open backup message at site-bremen that the acknowledgement and log tests work on. */
function injectBremenBackup(fleet: Awaited<ReturnType<typeof start>>) {
  return fleet.control.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'voll',
    severity: 'ERROR',
  });
}
