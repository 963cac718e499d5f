import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { type Fleet, startFleet } from '../../simulators/fleet/index.ts';
import type { PbxHandle } from '../../simulators/pbx/index.ts';
import { consoleMount } from '../../src/console/console-mount.ts';
import { consoleOptionsOf } from '../../src/console/console-options.ts';
import { axeViolations, type Browser, browserSkipReason, launchBrowser, screenshot } from './browser.ts';

// Issue 32: the fleet view of the console in a real browser, against the embedded fleet
// controller and a PBX linked to it over the ingest link, as `simulate` starts them.

const skip = browserSkipReason();
const ADMIN = 'anna.admin@nordlicht.example';
const ADMIN_PASSWORD = 'Nordlicht-Demo-1';
const VIEWER = 'vera.viewer@nordlicht.example';
let browser: Browser;
let fleet: Fleet;
let pbx: PbxHandle;
let page: Page;

before(async () => {
  if (skip) return;
  fleet = await startFleet({
    host: '127.0.0.1',
    clock: 'running',
    pbxCount: 1,
    pbx: { monitoringPort: 0 },
    primary: {
      options: (controller, fixture) => ({
        monitoringPort: 0,
        controlMounts: [consoleMount(consoleOptionsOf({ controller, fixture }, undefined, undefined))],
      }),
    },
  });
  pbx = fleet.pbxs[0]!.pbx;
  browser = await launchBrowser();
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await fleet?.close();
});

/** The controller's REST API as the demo admin sees it (FLEET-SITES-LIST). */
async function rest(path: string): Promise<unknown> {
  const auth = Buffer.from(`${ADMIN}:${ADMIN_PASSWORD}`).toString('base64');
  const answer = await request(`${fleet.urls.api}/api/v1${path}`, {
    headers: { authorization: `Basic ${auth}` },
  });
  assert.equal(answer.statusCode, 200);
  return answer.body.json();
}

async function openFleet(): Promise<void> {
  await page.goto('about:blank'); // a fresh page: a new hash alone would not load it again
  await page.goto(`${pbx.urls.control}/console#fleet`);
  await page.locator('#live.on').waitFor();
  await page.locator('#site-count', { hasText: /^\d+ of \d+ sites$/ }).waitFor();
}

interface SiteView {
  id: string;
  attentionEvents: { id: number; subject: string }[];
}

test('an attention event raised through the control plane shows in the feed within 1 s; acknowledged on the page, REST reports it', {
  skip,
}, async () => {
  await openFleet();
  const subject = `Sicherung fehlgeschlagen ${Date.now()}`;
  const raised = await request(`${pbx.urls.control}/events/attention`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ module: 'Backup', subject, severity: 'ERROR' }),
  });
  assert.ok(raised.statusCode < 300, `raised: ${raised.statusCode}`);
  await raised.body.dump();
  const raisedAt = Date.now();
  const entry = page.locator('#attention-feed li', { hasText: subject });
  await entry.waitFor({ timeout: 1000 });
  assert.ok(Date.now() - raisedAt < 1000);
  const siteId = (await entry.getAttribute('data-site')) ?? '';
  const sites = (await rest('/sites')) as SiteView[];
  const item = sites.find((s) => s.id === siteId)?.attentionEvents.find((i) => i.subject === subject);
  assert.ok(item, 'the REST site list has the item the feed shows');
  assert.equal(await entry.getAttribute('data-item'), String(item.id));

  // A Viewer may not acknowledge (FLEET-AUTH-VIEWER-ACK-403): the page says so, nothing changes.
  await page.getByLabel('Act as').selectOption(VIEWER);
  await page.locator('#site-count', { hasText: /^\d+ of \d+ sites$/ }).waitFor();
  await page.getByRole('button', { name: `Acknowledge ${subject}`, exact: false }).click();
  await page.locator('#ack-status', { hasText: 'not acknowledged' }).waitFor();
  const still = (await rest('/sites')) as SiteView[];
  assert.ok(still.find((s) => s.id === siteId)?.attentionEvents.some((i) => i.subject === subject));

  await page.getByLabel('Act as').selectOption(ADMIN);
  await page.getByRole('button', { name: `Acknowledge ${subject}`, exact: false }).click();
  await page.locator('#ack-status', { hasText: `acknowledged "${subject}" as ${ADMIN}` }).waitFor();
  await entry.waitFor({ state: 'detached' });
  const after = (await rest('/sites')) as SiteView[];
  assert.equal(
    after.find((s) => s.id === siteId)?.attentionEvents.some((i) => i.subject === subject),
    false,
  );
  const history = (await rest(`/sites/${encodeURIComponent(siteId)}/history`)) as {
    kind: string;
    own: boolean;
    attention: { subject: string };
  }[];
  const ack = history.find((h) => h.attention.subject === subject);
  assert.ok(ack, 'the history has the acknowledgement');
  assert.equal(ack.kind, 'ATTENTION_ACK');
  assert.equal(ack.own, true, 'made by the account the page acted as');
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'fleet');
});

test('one site: the details and the inventory its PBX reported, picked with the keyboard', {
  skip,
}, async () => {
  await openFleet();
  const siteId = fleet.pbxs[0]!.siteId;
  await page.getByLabel('Search sites').fill(siteId);
  await page.locator('#site-count', { hasText: /^1 of / }).waitFor();
  await page.getByRole('listbox', { name: 'Sites' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#site-detail code', { hasText: siteId }).waitFor();
  const shown = JSON.parse((await page.locator('#site-inventory').textContent()) ?? 'null');
  const reported = await fleet.control.getInventory({ siteId });
  assert.deepEqual(shown, JSON.parse(JSON.stringify(reported)));
  assert.notEqual(reported, null);
});

test('10,000 sites: the list draws only the rows in view, search finds one site', { skip }, async (t) => {
  const control = fleet.control;
  for (let n = 0; n < 10_000; n++) {
    const id = `site-bulk-${String(n).padStart(5, '0')}`;
    await control.addSite({ id, displayName: `Bulk ${n}` });
    await control.grant({ partnerId: 'p-nordlicht', siteId: id, kind: 'own' });
  }
  const total = ((await rest('/sites')) as unknown[]).length;
  assert.ok(total >= 10_000);
  const opened = Date.now();
  await openFleet();
  await page.locator('#site-count', { hasText: `${total} of ${total} sites` }).waitFor();
  t.diagnostic(
    `site list of ${total} drawn ${Date.now() - opened} ms after navigation (figures: npm run bench -- console)`,
  );
  const rows = await page.locator('#site-list [role="option"]').count();
  assert.ok(rows > 0 && rows < 100, `${rows} rows in the page for ${total} sites`);
  const searched = Date.now();
  await page.getByLabel('Search sites').fill('site-bulk-09876');
  await page.locator('#site-list [data-site="site-bulk-09876"]').waitFor();
  t.diagnostic(`search found the site ${Date.now() - searched} ms after typing`);
  assert.equal(await page.locator('#site-list [role="option"]').count(), 1);
  await page.getByLabel('Search sites').fill('');
  await page.getByRole('listbox', { name: 'Sites' }).focus();
  await page.keyboard.press('End');
  await page.locator(`#site-list [data-site="site-bulk-09999"]`).waitFor();
});
