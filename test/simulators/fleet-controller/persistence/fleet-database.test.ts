import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { open } from 'lmdb';
import { partsOf } from '../../../../simulators/fleet-controller/controller-parts.ts';
import { emptyFixture, type FleetHandle, start } from '../../../../simulators/fleet-controller/index.ts';
import { itemView } from '../../../../simulators/fleet-controller/model/caller-view.ts';
import { defaultFixture } from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { sha256Hex } from '../../../../simulators/fleet-controller/model/sha256-hex.ts';
import { DataDirInUseError } from '../../../../simulators/fleet-controller/persistence/data-dir-lock.ts';
import { DataFormatError } from '../../../../simulators/fleet-controller/persistence/fleet-database.ts';
import { ANNA, basic, FAST_SCRYPT, SAM, T0, TOKENS, TOM, VERA } from '../fleet-test-kit.ts';
import { consistencyProblems } from './fleet-consistency.ts';

function dataDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-data-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function get(fleet: FleetHandle, path: string, who: { email: string; password: string }) {
  const res = await fetch(`${fleet.urls.api}/api/v1${path}`, { headers: { authorization: basic(who) } });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
}

async function acknowledge(
  fleet: FleetHandle,
  siteId: string,
  id: number,
  who: typeof ANNA,
  comment: string,
) {
  const res = await fetch(`${fleet.urls.api}/api/v1/sites/${siteId}/attention/${id}/acknowledge`, {
    method: 'POST',
    headers: { authorization: basic(who), 'content-type': 'application/json' },
    body: JSON.stringify({ comment }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as { alreadyAcknowledged: boolean; acknowledgedAt: number };
}

async function mcpAcknowledge(fleet: FleetHandle, token: string, attentionId: number) {
  const client = new Client({ name: 'persistence-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(fleet.urls.mcp), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: 'fleet_attention_acknowledge', arguments: { attentionId } });
    assert.notEqual(result.isError, true);
  } finally {
    await client.close();
  }
}

const TOM_NEW = { email: TOM.email, password: 'Tom-Neu-2' };
const NEU = { email: 'neu@suedwind.example', password: 'Neu-Passwort-1' };

/** What the callers and the control plane can see, to compare before and after a restart. */
async function observe(fleet: FleetHandle) {
  const views: Record<string, unknown> = {};
  for (const who of [ANNA, TOM_NEW, VERA, SAM, NEU]) {
    views[`sites ${who.email}`] = await get(fleet, '/sites', who);
    for (const site of ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen'])
      views[`history ${site} ${who.email}`] = await get(fleet, `/sites/${site}/history`, who);
  }
  for (const site of ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen']) {
    views[`items ${site}`] = await fleet.control.items({ siteId: site });
    views[`link ${site}`] = await fleet.control.linkStatus({ siteId: site });
  }
  views['stats'] = await fleet.control.stats();
  const state = partsOf(fleet).state;
  views['accounts'] = [...state.access.accounts.values()].sort((a, b) => a.id.localeCompare(b.id));
  views['tokens'] = [...state.access.tokens.values()].sort((a, b) => a.id.localeCompare(b.id));
  views['counters'] = { ...state.counters(), clockAt: 0 };
  return views;
}

test('a restart with the same data directory keeps every item, acknowledgement, history entry, account and token, with the same ETags', async (t) => {
  const dir = dataDir(t);
  const options = { dataDir: dir, scryptCost: FAST_SCRYPT, clock: { start: T0 } };
  const first = await start(options);
  let before: Awaited<ReturnType<typeof observe>>;
  let issued: { id: string; token: string };
  let lastClock: number;
  try {
    const c = first.control;
    const a = await c.injectEvent({
      siteId: 'site-bremen',
      module: 'Backup',
      subject: 'NAS voll',
      severity: 'CRITICAL',
      description: 'Platz 😀',
    });
    await c.advanceClock({ ms: 1000 });
    await c.injectEvent({
      siteId: 'site-bremen',
      module: 'Backup',
      subject: 'NAS voll',
      severity: 'ERROR',
      suppressed: 3,
    });
    const b = await c.injectEvent({
      siteId: 'site-kiel',
      module: 'SIP',
      moduleId: 'mod-sip',
      subject: 'Trunk weg',
      severity: 'WARNING',
    });
    const m = await c.injectEvent({
      siteId: 'site-muenchen',
      module: 'Lizenz',
      subject: 'läuft ab',
      severity: 'INFO',
    });
    await c.injectEvent({ siteId: 'site-hamburg', module: 'Backup', subject: 'offen', severity: 'ERROR' });
    await c.advanceClock({ ms: 1000 });
    await acknowledge(first, 'site-bremen', a.item!.id, ANNA, 'erledigt');
    await acknowledge(first, 'site-bremen', a.item!.id, TOM, 'doppelt');
    await acknowledge(first, 'site-muenchen', m.item!.id, SAM, 'ok');
    await mcpAcknowledge(first, TOKENS.annaRw, b.item!.id);
    // Reopen and acknowledge again: a second history entry for the same item and partner.
    await c.advanceClock({ ms: 1000 });
    await c.injectEvent({
      siteId: 'site-muenchen',
      module: 'Lizenz',
      subject: 'läuft ab',
      severity: 'WARNING',
    });
    await acknowledge(first, 'site-muenchen', m.item!.id, SAM, 'wieder');
    issued = await c.issueToken({ accountId: ANNA.id, level: 'read-write', label: 'neu' });
    await c.revokeToken({ tokenId: 'tok-anna-r' });
    await c.addAccount({
      id: 'acc-neu',
      email: 'neu@suedwind.example',
      name: 'Neu',
      role: 'Technician',
      partnerId: 'p-suedwind',
      password: 'Neu-Passwort-1',
    });
    await c.updateAccount({ accountId: 'acc-tom', password: 'Tom-Neu-2', name: 'Tom T.' });
    await c.renameSite({ siteId: 'site-kiel', displayName: 'Kiel Hafen' });
    await c.grant({
      partnerId: 'p-nordlicht',
      siteId: 'site-muenchen',
      kind: 'managed',
      modules: ['Lizenz'],
    });
    await c.registerPbx({ siteId: 'site-hamburg', key: 'ingest-key-hamburg-geheim' });
    await c.registerPbx({ siteId: 'site-kiel', key: 'ingest-key-kiel-geheim' });
    await c.cutLink({ siteId: 'site-kiel' });
    await c.setInventory({
      siteId: 'site-muenchen',
      inventory: {
        at: T0,
        pbxVersion: '7.1',
        updateKind: 'minor',
        sipProviders: [{ uri: 'sip:a', registered: false }],
        backups: [],
        modules: [{ name: 'Backup', id: 'b', worstStatus: 1 }],
      },
    });
    before = await observe(first);
    lastClock = partsOf(first).clock.now();
    assert.deepEqual(consistencyProblems(partsOf(first).state), []);
  } finally {
    await first.close();
  }

  // Another fixture is ignored: the directory's state wins.
  const second = await start({ ...options, fixture: emptyFixture() });
  try {
    assert.deepEqual(await observe(second), before);
    assert.equal((await get(second, '/sites', TOM)).status, 401, 'the old password no longer signs in');
    assert.ok(partsOf(second).clock.now() >= lastClock, 'the clock does not run backwards');

    const anna = before[`sites ${ANNA.email}`] as { status: number; etag: string; body: string };
    assert.equal(anna.status, 200);
    assert.ok(anna.body.includes('offen') && !anna.body.includes('NAS voll'), 'open and acknowledged items');
    const res = await fetch(`${second.urls.api}/api/v1/sites`, {
      headers: { authorization: basic(ANNA), 'if-none-match': anna.etag },
    });
    assert.equal(res.status, 304, 'the ETag from before the restart still matches');
    await res.arrayBuffer();

    const auth = partsOf(second).authenticator;
    assert.equal(auth.bearer(`Bearer ${issued.token}`)?.account.id, ANNA.id, 'an issued token still works');
    assert.equal(auth.bearer(`Bearer ${TOKENS.annaR}`), null, 'a revoked token stays revoked');

    // The same site, module and subject keep their id; new ones continue above.
    const again = await second.control.injectEvent({
      siteId: 'site-bremen',
      module: 'Backup',
      subject: 'NAS voll',
      severity: 'ERROR',
    });
    const state = partsOf(second).state;
    assert.equal(again.outcome, 'merged');
    const fresh = await second.control.injectEvent({
      siteId: 'site-bremen',
      module: 'Neu',
      subject: 'neu',
      severity: 'INFO',
    });
    const maxBefore = Math.max(
      ...(['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen'] as const).flatMap((s) =>
        (before[`items ${s}`] as { id: number }[]).map((i) => i.id),
      ),
    );
    assert.ok(fresh.item!.id > maxBefore);
    const seqBefore = Math.max(...state.attention.history.map((h) => h.seq));
    await acknowledge(second, 'site-bremen', fresh.item!.id, SAM, 'neu');
    assert.ok(state.attention.history.at(-1)!.seq > seqBefore);
  } finally {
    await second.close();
  }
});

test('the control-plane reset is persisted: after it and a restart the directory holds the fixture again', async (t) => {
  const dir = dataDir(t);
  const options = { dataDir: dir, scryptCost: FAST_SCRYPT, clock: { start: T0 } };
  const first = await start(options);
  try {
    const { item } = await first.control.injectEvent({
      siteId: 'site-kiel',
      module: 'M',
      subject: 's',
      severity: 'INFO',
    });
    await acknowledge(first, 'site-kiel', item!.id, ANNA, 'x');
    await first.control.addPartner({ id: 'p-extra', name: 'Extra' });
    await first.control.reset();
  } finally {
    await first.close();
  }
  const second = await start(options);
  try {
    const state = partsOf(second).state;
    assert.equal(state.attention.history.length, 0);
    assert.deepEqual(await second.control.items({ siteId: 'site-kiel' }), []);
    assert.equal(state.access.partners.has('p-extra'), false);
    assert.deepEqual(
      [...state.access.accounts.keys()].sort(),
      defaultFixture()
        .accounts.map((a) => a.id)
        .sort(),
    );
  } finally {
    await second.close();
  }
});

test('only hashes of passwords, tokens and ingest keys reach the database files', async (t) => {
  const dir = dataDir(t);
  const fleet = await start({ dataDir: dir, scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  const secrets = [
    ANNA.password,
    TOM.password,
    VERA.password,
    SAM.password,
    TOKENS.annaRw,
    TOKENS.annaR,
    TOKENS.samRw,
  ];
  let issuedHash: string;
  try {
    const issued = await fleet.control.issueToken({ accountId: SAM.id, level: 'read' });
    const reg = await fleet.control.registerPbx({ siteId: 'site-kiel' });
    await fleet.control.addAccount({
      email: 'x@nordlicht.example',
      name: 'X',
      role: 'Admin',
      partnerId: 'p-nordlicht',
      password: 'Klartext-Passwort-42',
    });
    await fleet.control.updateAccount({ accountId: ANNA.id, password: 'Anna-Neu-Passwort-7' });
    await fleet.control.injectEvent({
      siteId: 'site-kiel',
      module: 'Sichtbar',
      subject: 'Klartext-Betreff',
      severity: 'INFO',
    });
    secrets.push(issued.token, reg.key, 'Klartext-Passwort-42', 'Anna-Neu-Passwort-7');
    issuedHash = sha256Hex(issued.token);
  } finally {
    await fleet.close();
  }
  const raw = Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
  // The scan sees stored text: what is meant to be stored is found.
  assert.ok(raw.includes('Klartext-Betreff'));
  assert.ok(raw.includes(issuedHash));
  assert.ok(raw.includes(sha256Hex(TOKENS.samRw)));
  assert.ok(raw.includes('scrypt$'));
  for (const secret of secrets) {
    assert.equal(
      raw.includes(secret),
      false,
      `a clear secret is in the database files: ${secret.slice(0, 4)}…`,
    );
    assert.equal(raw.includes(Buffer.from(secret, 'utf16le')), false);
  }
});

test('a second controller on the same directory is refused; after close it starts', async (t) => {
  const dir = dataDir(t);
  const first = await start({ dataDir: dir, scryptCost: FAST_SCRYPT });
  await assert.rejects(start({ dataDir: dir, scryptCost: FAST_SCRYPT }), DataDirInUseError);
  await first.close();
  const second = await start({ dataDir: dir, scryptCost: FAST_SCRYPT });
  await second.close();
});

test('a directory with an unknown store format is refused and left as it is', async (t) => {
  const dir = dataDir(t);
  const root = open({ path: dir, maxDbs: 16 });
  const meta = root.openDB({ name: 'meta', encoding: 'json' });
  meta.putSync('format', 99);
  await root.close();
  await assert.rejects(start({ dataDir: dir, scryptCost: FAST_SCRYPT }), DataFormatError);
  const again = open({ path: dir, maxDbs: 16 });
  assert.equal(again.openDB({ name: 'meta', encoding: 'json' }).get('format'), 99);
  await again.close();
  // The refused start released the directory.
  await assert.rejects(start({ dataDir: dir, scryptCost: FAST_SCRYPT }), DataFormatError);
});

test('ids and texts with NUL, lone surrogates and astral characters survive a restart unchanged', async (t) => {
  const dir = dataDir(t);
  const options = { dataDir: dir, scryptCost: FAST_SCRYPT, clock: { start: T0 } };
  const siteId = 'site-\u0000-\ud800-😀';
  const first = await start(options);
  let before: unknown;
  try {
    await first.control.addSite({ id: siteId, displayName: 'Zweig \udc00 😀' });
    await first.control.grant({ partnerId: 'p-nordlicht', siteId, kind: 'own', modules: ['M\u0000'] });
    // A lone surrogate cannot travel in a URL path, so the site's path-addressed operations go to
    // the state itself (the control plane's client refuses to send it, in process as over HTTP).
    await assert.rejects(first.control.items({ siteId }), /cannot be sent in a URL/);
    partsOf(first).state.attention.report(siteId, {
      module: 'M\u0000',
      subject: `${'😀'.repeat(250)}\ud800`,
      description: 'a\u0000b',
      severity: 'INFO',
      at: T0,
      suppressed: 0,
    });
    before = { items: itemsOf(first, siteId), sites: await get(first, '/sites', ANNA) };
  } finally {
    await first.close();
  }
  const second = await start(options);
  try {
    assert.deepEqual({ items: itemsOf(second, siteId), sites: await get(second, '/sites', ANNA) }, before);
    assert.equal(partsOf(second).state.access.rightOf('p-nordlicht', siteId)?.modules?.[0], 'M\u0000');
  } finally {
    await second.close();
  }
});

function itemsOf(fleet: FleetHandle, siteId: string) {
  return partsOf(fleet).state.attention.book.itemsOf(siteId).map(itemView);
}
