import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpFleetControl, start } from '../../../../simulators/fleet-controller/index.ts';
import { emptyFixture } from '../../../../simulators/fleet-controller/model/fleet-fixture.ts';
import { pbxInventory, pbxState, start as startPbx } from '../../../../simulators/pbx/index.ts';
import { ControlError } from '../../../../simulators/shared/control/control-error.ts';
import { basic, FAST_SCRYPT, T0 } from '../fleet-test-kit.ts';

test('the HTTP control plane builds a fleet from nothing: partner, site, right, account, token, event', async (t) => {
  const fleet = await start({ fixture: emptyFixture(), scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const control = httpFleetControl(fleet.urls.control);
  await control.addPartner({ id: 'p1', name: 'Partner Eins' });
  await control.addSite({ id: 's1', displayName: 'Standort Eins' });
  await control.grant({ partnerId: 'p1', siteId: 's1', kind: 'own' });
  const account = await control.addAccount({
    email: 'eva@p1.example',
    name: 'Eva',
    role: 'Technician',
    partnerId: 'p1',
    password: 'pw-eva',
  });
  assert.deepEqual(account, {
    id: account.id,
    email: 'eva@p1.example',
    name: 'Eva',
    role: 'Technician',
    partnerId: 'p1',
    level: 'read-write',
    hasPassword: true,
  });
  const token = await control.issueToken({ accountId: account.id, level: 'read' });
  assert.equal(token.token.length, 43);
  const injected = await control.injectEvent({
    siteId: 's1',
    module: 'Backup',
    subject: 'voll',
    severity: 'WARNING',
    at: T0 - 1,
  });
  assert.equal(injected.outcome, 'created');
  assert.equal(
    (await control.injectEvent({ siteId: 's1', module: 'Backup', subject: 'voll', severity: 'WARNING' }))
      .outcome,
    'merged',
  );
  assert.deepEqual(await control.advanceClock({ ms: 1000 }), { now: T0 + 1000 });
  assert.deepEqual(await control.now(), { now: T0 + 1000 });
  const res = await fetch(`${fleet.urls.api}/api/v1/sites`, {
    headers: { authorization: basic({ email: 'eva@p1.example', password: 'pw-eva' }) },
  });
  assert.equal(res.status, 200);
  const [site] = (await res.json()) as { attentionEvents: { occurrences: number }[] }[];
  assert.equal(site!.attentionEvents[0]!.occurrences, 2);
  const items = await control.items({ siteId: 's1' });
  assert.equal(items.length, 1);
  assert.deepEqual(items[0]!.acknowledgedBy, []);
  await control.renameSite({ siteId: 's1', displayName: 'Standort 1' });
  const renamed = await control.updateAccount({ accountId: account.id, name: 'Eva B.', level: 'read' });
  assert.equal(renamed.level, 'read');
  await control.revokeToken({ tokenId: token.id });
  await control.revoke({ partnerId: 'p1', siteId: 's1' });
  const after = await fetch(`${fleet.urls.api}/api/v1/sites`, {
    headers: { authorization: basic({ email: 'eva@p1.example', password: 'pw-eva' }) },
  });
  assert.deepEqual(await after.json(), []);
});

test('the HTTP control plane registers PBXs, cuts links and resets to the fixture', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const control = httpFleetControl(fleet.urls.control);
  const reg = await control.registerPbx({ siteId: 'site-kiel', key: 'fixed-key' });
  assert.deepEqual(reg, { siteId: 'site-kiel', ingest: fleet.urls.ingest, key: 'fixed-key' });
  assert.deepEqual(await control.linkStatus({ siteId: 'site-kiel' }), {
    siteId: 'site-kiel',
    registered: true,
    connected: 0,
    cut: false,
  });
  await control.cutLink({ siteId: 'site-kiel' });
  assert.equal((await control.linkStatus({ siteId: 'site-kiel' })).cut, true);
  await control.restoreLink({ siteId: 'site-kiel' });
  await control.setInventory({
    siteId: 'site-kiel',
    inventory: {
      at: T0,
      pbxVersion: '1',
      updateKind: 'none',
      sipProviders: [],
      backups: [],
      modules: [],
    },
  });
  await control.setInventory({ siteId: 'site-kiel', inventory: null });
  await control.injectEvent({ siteId: 'site-kiel', module: 'M', subject: 's', severity: 'INFO' });
  assert.deepEqual(await control.stats(), {
    accepted: 1,
    capped: 0,
    cappedSuppressed: 0,
    duplicates: 0,
    invalid: 0,
  });
  await control.reset();
  assert.deepEqual(await control.items({ siteId: 'site-kiel' }), []);
  assert.equal((await control.linkStatus({ siteId: 'site-kiel' })).registered, false);
});

test('the control plane answers bad input 400, unknown things 404, conflicts 409 and unknown routes 404/405', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const control = httpFleetControl(fleet.urls.control);
  const status = async (p: Promise<unknown>) => {
    try {
      await p;
      return 200;
    } catch (e) {
      assert.ok(e instanceof ControlError);
      return e.status;
    }
  };
  assert.equal(
    await status(
      control.injectEvent({ siteId: 'site-kiel', module: 'M', subject: 's', severity: 'FATAL' as never }),
    ),
    400,
  );
  assert.equal(
    await status(
      control.injectEvent({ siteId: 'site-nowhere', module: 'M', subject: 's', severity: 'INFO' }),
    ),
    404,
  );
  assert.equal(await status(control.addSite({ id: 'site-kiel', displayName: 'dup' })), 409);
  assert.equal(await status(control.advanceClock({ ms: -1 })), 400);
  assert.equal(
    await status(
      control.addAccount({
        email: 'x@y',
        name: 'x',
        role: 'Boss' as never,
        partnerId: 'p-nordlicht',
        password: null,
      }),
    ),
    400,
  );
  assert.equal(
    await status(control.setInventory({ siteId: 'site-kiel', inventory: { at: 'x' } as never })),
    400,
  );
  assert.equal(await status(control.cutLink({ siteId: 'site-kiel' })), 404, 'no PBX registered');
  const raw = await fetch(`${fleet.urls.control}/nothing`);
  assert.equal(raw.status, 404);
  await raw.arrayBuffer();
  const wrong = await fetch(`${fleet.urls.control}/stats`, { method: 'DELETE' });
  assert.equal(wrong.status, 405);
  await wrong.arrayBuffer();
  const bad = await fetch(`${fleet.urls.control}/partners`, { method: 'POST', body: '{' });
  assert.equal(bad.status, 400);
  await bad.arrayBuffer();
});

test('getInventory shows the inventory a connected PBX reported, null before it, 404 for an unknown site', async (t) => {
  const fleet = await start({ scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const control = httpFleetControl(fleet.urls.control);
  await assert.rejects(
    control.getInventory({ siteId: 'site-nowhere' }),
    (e: unknown) => e instanceof ControlError && e.status === 404 && e.code === 'not_found',
  );
  assert.equal(await control.getInventory({ siteId: 'site-kiel' }), null);

  const reg = await control.registerPbx({ siteId: 'site-kiel' });
  const pbx = await startPbx({
    monitoringPort: 0,
    clock: { mode: 'frozen', start: T0 },
    controller: { ingest: reg.ingest, siteId: 'site-kiel', key: reg.key },
  });
  t.after(() => pbx.close());
  // The PBX reports its inventory as soon as its link is up (EVENT-UNSPEC-TRANSPORT).
  let reported = await control.getInventory({ siteId: 'site-kiel' });
  for (const deadline = Date.now() + 10_000; reported === null && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    reported = await control.getInventory({ siteId: 'site-kiel' });
  }
  assert.deepEqual(reported, pbxInventory(pbxState(pbx), T0));

  // In process the same operation answers the same; `setInventory` null clears it.
  assert.deepEqual(await fleet.control.getInventory({ siteId: 'site-kiel' }), reported);
  await pbx.close();
  await control.setInventory({ siteId: 'site-kiel', inventory: null });
  assert.equal(await fleet.control.getInventory({ siteId: 'site-kiel' }), null);
});

test('FLEET-AUTH-IDP-ONLY: getAccount shows an account as created and changed, without a password hash, 404 for an unknown one', async (t) => {
  const fleet = await start({ fixture: emptyFixture(), scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  t.after(() => fleet.close());
  const control = httpFleetControl(fleet.urls.control);
  await control.addPartner({ id: 'p1', name: 'Partner Eins' });
  const created = await control.addAccount({
    id: 'acc-idp',
    email: 'ida@p1.example',
    name: 'Ida',
    role: 'Viewer',
    partnerId: 'p1',
    password: null,
  });
  const read = await control.getAccount({ accountId: 'acc-idp' });
  assert.deepEqual(read, created);
  assert.equal(read.hasPassword, false);
  assert.equal(read.level, 'read');
  assert.ok(!('passwordHash' in read));
  await control.updateAccount({ accountId: 'acc-idp', name: 'Ida M.', password: 'pw-ida' });
  assert.deepEqual(await control.getAccount({ accountId: 'acc-idp' }), {
    ...created,
    name: 'Ida M.',
    hasPassword: true,
  });
  // In process the same operation answers the same.
  assert.deepEqual(await fleet.control.getAccount({ accountId: 'acc-idp' }), {
    ...created,
    name: 'Ida M.',
    hasPassword: true,
  });
  await assert.rejects(
    control.getAccount({ accountId: 'acc-nobody' }),
    (e: unknown) => e instanceof ControlError && e.status === 404 && e.code === 'not_found',
  );
});
