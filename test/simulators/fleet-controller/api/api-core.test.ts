import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SiteView } from '../../../../simulators/fleet-controller/model/caller-view.ts';
import type { HistoryEntryView } from '../../../../simulators/fleet-controller/model/history-view.ts';
import type { PbxInventory } from '../../../../simulators/shared/wire/pbx-inventory.ts';
import {
  ANNA,
  assertSchema,
  fleetCore,
  jsonBody,
  postJson,
  report,
  SAM,
  SSO,
  T0,
  TOM,
  VERA,
} from '../fleet-test-kit.ts';

const ACK = (site: string, id: number | string) => `/api/v1/sites/${site}/attention/${id}/acknowledge`;

async function withItem(subject = 'Backup failed') {
  const core = await fleetCore();
  const out = core.state.attention.report(
    'site-bremen',
    report({ subject, description: 'Check the NAS', moduleId: 'mod-backup' }),
  );
  assert.notEqual(out.kind, 'capped');
  const id = out.kind === 'capped' ? -1 : out.item.id;
  return { ...core, id };
}

function sites(res: { body?: string }): SiteView[] {
  return jsonBody(res as never) as SiteView[];
}

test('FLEET-ERR-401-NOT-SIGNED-IN: no credentials, or credentials of no account, get 401 without body and a Basic challenge', async () => {
  const { call } = await fleetCore();
  for (const res of [
    await call('GET', '/api/v1/sites'),
    await call('GET', '/api/v1/sites', { email: 'nobody@example.invalid', password: 'x' }),
  ]) {
    assert.equal(res.status, 401);
    assert.equal(res.body, undefined);
    assert.match(res.headers['www-authenticate'] ?? '', /^Basic /);
  }
});

test('FLEET-ERR-401-WRONG-PASSWORD and FLEET-AUTH-IDP-ONLY: a wrong password and an identity-provider account get 401', async () => {
  const { call } = await fleetCore();
  assert.equal((await call('GET', '/api/v1/sites', { ...ANNA, password: 'wrong' })).status, 401);
  assert.equal((await call('GET', '/api/v1/sites', { ...ANNA, password: `${ANNA.password} ` })).status, 401);
  for (const password of ['', 'anything', ANNA.password]) {
    const res = await call('GET', '/api/v1/sites', { ...SSO, password });
    assert.equal(res.status, 401);
    assert.equal(res.body, undefined);
  }
});

test('FLEET-AUTH-BASIC: the e-mail matches case-insensitively and the password may contain colons', async () => {
  const { call, state } = await fleetCore();
  const { hashPassword } = await import('../../../../simulators/fleet-controller/model/password-hash.ts');
  state.access.requireAccount(TOM.id).passwordHash = await hashPassword('a:b:c', { N: 1024, r: 8, p: 1 });
  assert.equal(
    (await call('GET', '/api/v1/sites', { email: ANNA.email.toUpperCase(), password: ANNA.password })).status,
    200,
  );
  assert.equal((await call('GET', '/api/v1/sites', { email: TOM.email, password: 'a:b:c' })).status, 200);
});

test('FLEET-AUTH-VISIBLE-SITES, FLEET-AUTH-FOREIGN-SITE-HIDDEN: each partner sees its own and managed sites only', async () => {
  const { call } = await fleetCore();
  const anna = sites(await call('GET', '/api/v1/sites', ANNA));
  const sam = sites(await call('GET', '/api/v1/sites', SAM));
  assertSchema('site-list', anna);
  assertSchema('site-list', sam);
  assert.deepEqual(anna.map((s) => s.id).sort(), ['site-bremen', 'site-hamburg', 'site-kiel']);
  assert.deepEqual(sam.map((s) => s.id).sort(), ['site-bremen', 'site-muenchen']);
  assert.deepEqual(
    anna.find((s) => s.id === 'site-bremen'),
    {
      id: 'site-bremen',
      displayName: 'Bremen Werk',
      attention: [],
      attentionEvents: [],
    },
  );
});

test('FLEET-SITE-EVENTS-KEY, FLEET-SITE-ATTENTION-EVENTS-OPEN, FLEET-ITEM-SCHEMA: a reported message shows under attentionEvents with events in attention', async () => {
  const { call, id } = await withItem();
  const bremen = sites(await call('GET', '/api/v1/sites', ANNA)).find((s) => s.id === 'site-bremen')!;
  assert.deepEqual(bremen.attention, ['events']);
  assert.equal(bremen.attentionEvents.length, 1);
  const item = bremen.attentionEvents[0]!;
  assertSchema('attention-item', item);
  assert.deepEqual(item, {
    id,
    module: 'Backup',
    moduleId: 'mod-backup',
    subject: 'Backup failed',
    description: 'Check the NAS',
    severity: 'ERROR',
    firstAt: T0,
    lastAt: T0,
    occurrences: 1,
    suppressed: 0,
  });
});

test('FLEET-ITEM-MODULEID, FLEET-ITEM-DESCRIPTION-OPTIONAL: moduleId and description are absent when the module sent none', async () => {
  const { call, state } = await fleetCore();
  state.attention.report('site-kiel', report({ subject: 'bare' }));
  const item = sites(await call('GET', '/api/v1/sites', ANNA)).find((s) => s.id === 'site-kiel')!
    .attentionEvents[0]!;
  assert.ok(!('moduleId' in item));
  assert.ok(!('description' in item));
});

test('FLEET-SITES-NOT-MODIFIED: If-None-Match with the current ETag gets 304 without body', async () => {
  const { call } = await withItem();
  const first = await call('GET', '/api/v1/sites', ANNA);
  assert.equal(first.status, 200);
  const etag = first.headers['etag']!;
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
  const again = await call('GET', '/api/v1/sites', ANNA, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.body, undefined);
  assert.equal(again.headers['etag'], etag);
  const weak = await call('GET', '/api/v1/sites', ANNA, {
    headers: { 'if-none-match': `"other", W/${etag}` },
  });
  assert.equal(weak.status, 304);
  const other = await call('GET', '/api/v1/sites', ANNA, { headers: { 'if-none-match': '"other"' } });
  assert.equal(other.status, 200);
});

test('FLEET-SITES-ETAG-NEW-MESSAGE, FLEET-SITES-ETAG-ACK: a new message and an acknowledgement change the ETag', async () => {
  const { call, state, id } = await withItem();
  const e1 = (await call('GET', '/api/v1/sites', ANNA)).headers['etag']!;
  state.attention.report('site-bremen', report({ subject: 'another' }));
  const r2 = await call('GET', '/api/v1/sites', ANNA, { headers: { 'if-none-match': e1 } });
  assert.equal(r2.status, 200);
  const e2 = r2.headers['etag']!;
  assert.notEqual(e2, e1);
  assert.equal((await call('POST', ACK('site-bremen', id), ANNA)).status, 200);
  const r3 = await call('GET', '/api/v1/sites', ANNA, { headers: { 'if-none-match': e2 } });
  assert.equal(r3.status, 200);
  assert.notEqual(r3.headers['etag'], e2);
});

test('FLEET-UNSPEC-ETAG: another partner acknowledging leaves the caller ETag unchanged', async () => {
  const { call, id } = await withItem();
  const samTag = (await call('GET', '/api/v1/sites', SAM)).headers['etag']!;
  assert.equal((await call('POST', ACK('site-bremen', id), ANNA)).status, 200);
  assert.equal(
    (await call('GET', '/api/v1/sites', SAM, { headers: { 'if-none-match': samTag } })).status,
    304,
  );
});

test('FLEET-ACK-ENDPOINT, FLEET-ACK-FIRST, FLEET-ACK-RESULT-IDS, FLEET-ACK-COMMENT-OPTIONAL: the first acknowledge answers 200 with alreadyAcknowledged false', async () => {
  const { call, clock, id } = await withItem();
  clock.advance(1234);
  const res = await call('POST', ACK('site-bremen', id), ANNA, postJson({}));
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'] ?? '', /^application\/json; charset=utf-8/);
  const body = jsonBody(res);
  assertSchema('acknowledge-result', body);
  assert.deepEqual(body, {
    attentionId: id,
    siteId: 'site-bremen',
    alreadyAcknowledged: false,
    acknowledgedAt: T0 + 1234,
  });
});

test('FLEET-ACK-PARTNER-WIDE, FLEET-ACK-REPEAT, FLEET-ACK-LEAVES-OPEN-LIST: another account of the partner sees it acknowledged; the item leaves the open list', async () => {
  const { call, clock, id } = await withItem();
  assert.equal((await call('POST', ACK('site-bremen', id), ANNA)).status, 200);
  clock.advance(5000);
  const tom = jsonBody(await call('POST', ACK('site-bremen', id), TOM)) as {
    alreadyAcknowledged: boolean;
    acknowledgedAt: number;
  };
  assert.equal(tom.alreadyAcknowledged, true);
  assert.equal(tom.acknowledgedAt, T0, 'FLEET-UNSPEC-REPEAT-ACK-TIME: the first acknowledgement time');
  const bremen = sites(await call('GET', '/api/v1/sites', TOM)).find((s) => s.id === 'site-bremen')!;
  assert.deepEqual(bremen.attentionEvents, []);
  assert.ok(!bremen.attention.includes('events'));
});

test('FLEET-ACK-OTHER-PARTNERS-UNAFFECTED, FLEET-HISTORY-OWN-PARTNER-ONLY: another partner of the site still sees the item open and its own first acknowledge', async () => {
  const { call, id } = await withItem();
  await call('POST', ACK('site-bremen', id), ANNA, postJson({ comment: 'erledigt' }));
  const sam = sites(await call('GET', '/api/v1/sites', SAM)).find((s) => s.id === 'site-bremen')!;
  assert.deepEqual(
    sam.attentionEvents.map((e) => e.id),
    [id],
  );
  assert.deepEqual(jsonBody(await call('GET', '/api/v1/sites/site-bremen/history', SAM)), []);
  const res = jsonBody(await call('POST', ACK('site-bremen', id), SAM)) as { alreadyAcknowledged: boolean };
  assert.equal(res.alreadyAcknowledged, false);
  const samHistory = jsonBody(
    await call('GET', '/api/v1/sites/site-bremen/history', SAM),
  ) as HistoryEntryView[];
  assert.equal(samHistory.length, 1);
  assert.equal(samHistory[0]!.actor, 'Sam Admin');
});

test('FLEET-HISTORY-SCHEMA, FLEET-HISTORY-CHANNEL-CONSOLE, FLEET-HISTORY-ATTENTION, FLEET-HISTORY-COMMENT, FLEET-ACK-HISTORY-ONCE: one entry per first acknowledgement', async () => {
  const { call, clock, id } = await withItem();
  clock.advance(10);
  await call('POST', ACK('site-bremen', id), ANNA, postJson({ comment: 'NAS getauscht 😀' }));
  await call('POST', ACK('site-bremen', id), ANNA, postJson({ comment: 'noch mal' }));
  await call('POST', ACK('site-bremen', id), TOM);
  const res = await call('GET', '/api/v1/sites/site-bremen/history', ANNA);
  assert.equal(res.status, 200);
  const history = jsonBody(res) as HistoryEntryView[];
  assertSchema('history-list', history);
  assert.deepEqual(history, [
    {
      kind: 'ATTENTION_ACK',
      actor: 'Anna Admin',
      own: true,
      channel: 'console',
      createdAt: T0 + 10,
      siteName: 'Bremen Werk',
      attention: {
        id,
        module: 'Backup',
        subject: 'Backup failed',
        severity: 'ERROR',
        comment: 'NAS getauscht 😀',
      },
      tool: null,
      state: null,
      outcome: null,
      completedAt: null,
    },
  ]);
  const tomView = jsonBody(await call('GET', '/api/v1/sites/site-bremen/history', TOM)) as HistoryEntryView[];
  assert.equal(tomView[0]!.own, false, 'FLEET-UNSPEC-OWN: own marks the caller account entries');
});

test('FLEET-HISTORY-COMMENT: an acknowledgement without comment has comment null', async () => {
  const { call, id } = await withItem();
  await call('POST', ACK('site-bremen', id), ANNA);
  const [entry] = jsonBody(
    await call('GET', '/api/v1/sites/site-bremen/history', ANNA),
  ) as HistoryEntryView[];
  assert.equal(entry!.attention.comment, null);
});

test('FLEET-HISTORY-ACTOR: a later rename does not change the entry; siteName is the name at the time', async () => {
  const { call, state, id } = await withItem();
  await call('POST', ACK('site-bremen', id), ANNA);
  state.access.requireAccount(ANNA.id).name = 'Anna Umbenannt';
  state.access.renameSite('site-bremen', 'Bremen Neu');
  const [entry] = jsonBody(
    await call('GET', '/api/v1/sites/site-bremen/history', ANNA),
  ) as HistoryEntryView[];
  assert.equal(entry!.actor, 'Anna Admin');
  assert.equal(entry!.siteName, 'Bremen Werk');
});

test('EVENT-REPORT-REOPENS, FLEET-ACK-AFTER-REOPEN: a new report reopens the item with the same id; its acknowledge writes a second entry', async () => {
  const { call, state, clock, id } = await withItem();
  await call('POST', ACK('site-bremen', id), ANNA);
  clock.advance(60_000);
  state.attention.report('site-bremen', report({ at: T0 + 60_000 }));
  const bremen = sites(await call('GET', '/api/v1/sites', ANNA)).find((s) => s.id === 'site-bremen')!;
  assert.deepEqual(
    bremen.attentionEvents.map((e) => [e.id, e.occurrences]),
    [[id, 2]],
  );
  const again = jsonBody(await call('POST', ACK('site-bremen', id), TOM)) as { alreadyAcknowledged: boolean };
  assert.equal(again.alreadyAcknowledged, false);
  const history = jsonBody(
    await call('GET', '/api/v1/sites/site-bremen/history', ANNA),
  ) as HistoryEntryView[];
  assert.deepEqual(
    history.map((h) => h.actor),
    ['Tom Technik', 'Anna Admin'],
  );
});

test('FLEET-AUTH-VIEWER-READS, FLEET-AUTH-VIEWER-ACK-403, FLEET-ERROR-OBJECT: a Viewer reads but gets 403 forbidden with a German message, and nothing is acknowledged', async () => {
  const { call, state, id } = await withItem();
  assert.equal((await call('GET', '/api/v1/sites', VERA)).status, 200);
  assert.equal((await call('GET', '/api/v1/sites/site-bremen/history', VERA)).status, 200);
  const res = await call('POST', ACK('site-bremen', id), VERA, postJson({ comment: 'x' }));
  assert.equal(res.status, 403);
  const body = jsonBody(res) as { error: string; message: string };
  assertSchema('error', body);
  assert.equal(body.error, 'forbidden');
  assert.match(body.message, /[äöüß]|Betrachter/);
  assert.equal(state.attention.book.get(id)!.acks.size, 0);
  assert.equal(state.attention.history.length, 0);
});

test('FLEET-ERR-400-COMMENT-TOO-LONG, FLEET-ACK-COMMENT-MAX: 1000 characters are accepted, 1001 refused with invalid_request; astral characters count once', async () => {
  const { call, state, id } = await withItem();
  const tooLong = await call('POST', ACK('site-bremen', id), ANNA, postJson({ comment: '😀'.repeat(1001) }));
  assert.equal(tooLong.status, 400);
  const body = jsonBody(tooLong) as { error: string; message: string };
  assertSchema('error', body);
  assert.equal(body.error, 'invalid_request');
  assert.equal(state.attention.book.get(id)!.acks.size, 0);
  const ok = await call('POST', ACK('site-bremen', id), ANNA, postJson({ comment: '😀'.repeat(1000) }));
  assert.equal(ok.status, 200);
  assert.equal(state.attention.history[0]!.attention.comment, '😀'.repeat(1000));
});

test('FLEET-UNSPEC-ACK-BODY: malformed JSON, a non-object, a non-string comment and a non-JSON content type get 400 invalid_request', async () => {
  const { call, state, id } = await withItem();
  const bodies = [
    { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"comment":') },
    { headers: { 'content-type': 'application/json' }, body: Buffer.from('[1]') },
    postJson({ comment: 42 }),
    { headers: { 'content-type': 'text/plain' }, body: Buffer.from('{}') },
  ];
  for (const extra of bodies) {
    const res = await call('POST', ACK('site-bremen', id), ANNA, extra);
    assert.equal(res.status, 400);
    assert.equal((jsonBody(res) as { error: string }).error, 'invalid_request');
  }
  assert.equal(state.attention.history.length, 0);
  const nullComment = await call(
    'POST',
    ACK('site-bremen', id),
    ANNA,
    postJson({ comment: null, extra: true }),
  );
  assert.equal(nullComment.status, 200);
});

test('FLEET-ERR-404-ITEM-UNKNOWN, FLEET-ERR-404-ITEM-OTHER-SITE, FLEET-ERR-404-SITE-FOREIGN, FLEET-ERR-404-SITE-UNKNOWN: 404 without body', async () => {
  const { call, state, id } = await withItem();
  const muenchen = state.attention.report('site-muenchen', report({ subject: 'only south' }));
  const foreignId = muenchen.kind === 'capped' ? -1 : muenchen.item.id;
  const cases = [
    ACK('site-bremen', id + 1000),
    ACK('site-bremen', 'abc'),
    ACK('site-hamburg', id),
    ACK('site-muenchen', foreignId),
    ACK('site-nowhere', id),
    ACK('%E0%A4%A', id),
  ];
  for (const path of cases) {
    const res = await call('POST', path, ANNA);
    assert.equal(res.status, 404, path);
    assert.equal(res.body, undefined);
  }
  for (const path of ['/api/v1/sites/site-muenchen/history', '/api/v1/sites/site-nowhere/history']) {
    const res = await call('GET', path, ANNA);
    assert.equal(res.status, 404, path);
    assert.equal(res.body, undefined);
  }
  assert.equal(state.attention.history.length, 0);
});

test('FLEET-ERR-404-ITEM-INVISIBLE, FLEET-UNSPEC-INVISIBLE-ITEM: an item of a module outside the partner right is hidden and answers 404', async () => {
  const { call, state, id } = await withItem();
  state.access.grant({
    partnerId: 'p-nordlicht',
    siteId: 'site-bremen',
    kind: 'managed',
    modules: ['Trunks'],
  });
  const bremen = sites(await call('GET', '/api/v1/sites', ANNA)).find((s) => s.id === 'site-bremen')!;
  assert.deepEqual(bremen.attentionEvents, []);
  assert.equal((await call('POST', ACK('site-bremen', id), ANNA)).status, 404);
  state.access.grant({
    partnerId: 'p-nordlicht',
    siteId: 'site-bremen',
    kind: 'managed',
    modules: ['mod-backup'],
  });
  assert.equal((await call('POST', ACK('site-bremen', id), ANNA)).status, 200);
});

test('FLEET-UNSPEC-403-VS-404: a Viewer acknowledging an unknown item gets 404, not 403', async () => {
  const { call, id } = await withItem();
  assert.equal((await call('POST', ACK('site-bremen', id + 1), VERA)).status, 404);
  assert.equal((await call('POST', ACK('site-muenchen', id), VERA)).status, 404);
});

test('FLEET-FINDINGS-SELF-CLEARING, FLEET-FINDINGS-NOT-ACKNOWLEDGEABLE: findings follow the inventory and reachability and vanish with their cause', async () => {
  const { call, state } = await fleetCore();
  const inventory: PbxInventory = {
    at: T0,
    pbxVersion: '12.4.1.3',
    updateKind: 'minor',
    sipProviders: [{ uri: 'sip:a@b', registered: false }],
    backups: [
      { target: 'HDD', lastRun: { time: T0 - 1000, result: 'de.vendor.backup.failed' }, lastSuccessAt: null },
    ],
    modules: [{ name: 'Monitoring', id: 'm1', worstStatus: 2 }],
  };
  state.ingest.setInventory('site-kiel', inventory);
  state.ingest.registerPbx('site-kiel', 'k');
  const kiel = () =>
    call('GET', '/api/v1/sites', ANNA).then((r) => sites(r).find((s) => s.id === 'site-kiel')!);
  assert.deepEqual((await kiel()).attention, [
    'offline',
    'trunks',
    'backupFailed',
    'backupMissing',
    'version',
    'modules',
  ]);
  assert.deepEqual((await kiel()).attentionEvents, []);
  state.ingest.setConnections('site-kiel', 1);
  state.ingest.setInventory('site-kiel', {
    ...inventory,
    updateKind: 'none',
    sipProviders: [{ uri: 'sip:a@b', registered: true }],
    backups: [
      {
        target: 'HDD',
        lastRun: { time: T0 - 1000, result: 'de.vendor.backup.successful' },
        lastSuccessAt: T0 - 1000,
      },
    ],
    modules: [{ name: 'Monitoring', id: 'm1', worstStatus: 0 }],
  });
  assert.deepEqual((await kiel()).attention, []);
});

test('FLEET-BASE-PATH: wrong methods get 405, unknown paths 404, paths outside /api/v1 404 before authentication', async () => {
  const { call } = await fleetCore();
  const post = await call('POST', '/api/v1/sites', ANNA);
  assert.equal(post.status, 405);
  assert.equal(post.headers['allow'], 'GET, HEAD');
  assert.equal((await call('GET', ACK('site-bremen', 1), ANNA)).status, 405);
  assert.equal((await call('GET', '/api/v1/nothing', ANNA)).status, 404);
  assert.equal((await call('GET', '/api/v1/nothing')).status, 401);
  assert.equal((await call('GET', '/elsewhere')).status, 404);
  const head = await call('HEAD', '/api/v1/sites', ANNA);
  assert.equal(head.status, 200);
  assert.equal(head.body, undefined);
  assert.ok(head.headers['etag']);
});

test('FLEET-JSON-UTF8, FLEET-TIMES-MS-UTC: bodies are UTF-8 JSON and every time is an integer', async () => {
  const { call, state } = await fleetCore();
  state.attention.report('site-hamburg', report({ subject: 'Störung Übertragung 😀', at: T0 + 7 }));
  const res = await call('GET', '/api/v1/sites', ANNA);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const [item] = sites(res).find((s) => s.id === 'site-hamburg')!.attentionEvents;
  assert.equal(item!.subject, 'Störung Übertragung 😀');
  assert.ok(Number.isInteger(item!.firstAt) && Number.isInteger(item!.lastAt));
});
