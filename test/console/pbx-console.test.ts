import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { type PbxHandle, pbxState, start } from '../../simulators/pbx/index.ts';
import { consoleMount } from '../../src/console/console-mount.ts';
import { axeViolations, type Browser, browserSkipReason, launchBrowser, screenshot } from './browser.ts';

// Issue 32: the PBX view of the console in a real browser (Debian's Chromium through
// playwright-core), every behaviour checked on the page and on the wire (the data endpoint and
// the control plane as curl sees them).

const skip = browserSkipReason();
let browser: Browser;
let pbx: PbxHandle;
let page: Page;

before(async () => {
  if (skip) return;
  pbx = await start({ monitoringPort: 0, controlMounts: [consoleMount({ tokenRequired: false })] });
  browser = await launchBrowser();
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await pbx?.close();
});

/** What the data endpoint answers at `path` right now, as curl gets it. */
async function wire(path: string): Promise<{ status: number; body: string }> {
  const endpoint = await pbx.control.endpointStatus();
  const answer = await request(`http://127.0.0.1:${endpoint.port}${path}`);
  return { status: answer.statusCode, body: await answer.body.text() };
}

async function control(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) {
  const answer = await request(`${pbx.urls.control}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, body: text === '' ? undefined : JSON.parse(text) };
}

async function openConsole(): Promise<void> {
  await control('POST', '/reset');
  await page.goto('about:blank');
  await page.goto(`${pbx.urls.control}/console`);
  await page.locator('#live.on').waitFor();
  await page.locator('#face-body').getByText('<<<pbx>>>').first().waitFor();
}

/** The agent text the page shows, exactly as its `<pre>` holds it. */
async function shownFace(): Promise<string> {
  return (await page.locator('#face-body').textContent()) ?? '';
}

test('picking raid-degraded changes the agent text shown and the /json curl gets', { skip }, async () => {
  await openConsole();
  const jsonBefore = await wire('/json');
  await page.getByLabel('Scenario to load').selectOption('raid-degraded');
  await assert.doesNotReject(page.locator('#scenario-description').getByText(/RAID/i).waitFor());
  await page.getByRole('button', { name: 'Load scenario' }).click();
  await page.locator('#face-body mark.changed', { hasText: 'DEGRADED' }).first().waitFor();
  const agentText = await wire('/checkmk');
  assert.match(agentText.body, /RAID-1\s+DEGRADED/);
  assert.equal(
    (await shownFace()).trimEnd(),
    agentText.body.trimEnd(),
    'the page shows what the endpoint serves',
  );
  const jsonAfter = await wire('/json');
  assert.notEqual(jsonAfter.body, jsonBefore.body, 'curl /json changed with the scenario');
  assert.equal((await control('GET', '/state')).body.raid === null, false, 'the scenario has a RAID');
  await page.getByRole('tab', { name: 'JSON' }).click();
  assert.equal((await shownFace()).trimEnd(), jsonAfter.body.trimEnd());
  await page.getByRole('tab', { name: 'Agent text' }).click();
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'pbx');
});

test('an edited state field shows in the data endpoint answer; an invalid one is not sent', {
  skip,
}, async () => {
  await openConsole();
  const section = page.locator('details[data-path="sip"]');
  await section.locator('summary').click();
  const field = page.getByLabel(/^onlinePhones/);
  await field.fill('-3x');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  await page.getByText('must be a number').waitFor();
  assert.equal(await page.getByRole('button', { name: /^Send 1 change/ }).isDisabled(), true);
  await field.fill('7');
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  await page.getByRole('button', { name: /^Send 1 change/ }).click();
  await page.getByText('send state: done').waitFor();
  const json = JSON.parse((await wire('/json')).body) as { onlinePhones: number };
  assert.equal(json.onlinePhones, 7);
  assert.equal((await control('GET', '/state')).body.sip.onlinePhones, 7);
});

test('a fault shows in the page view of the face, as curl sees it', { skip }, async () => {
  await openConsole();
  await page.getByLabel('render-error').check();
  await page.locator('#face-status', { hasText: '500' }).waitFor();
  const answer = await wire('/checkmk');
  assert.equal(answer.status, 500);
  assert.match(await shownFace(), /injected fault render-error/);
  assert.deepEqual((await control('GET', '/faults')).body.active, ['render-error']);
  await page.getByLabel('render-error').uncheck();
  await page.locator('#face-status', { hasText: ': 200,' }).waitFor();
  assert.deepEqual((await control('GET', '/faults')).body.active, []);
});

test('a change made with curl shows on the page within one second, over the event stream', {
  skip,
}, async () => {
  await openConsole();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  assert.equal((await control('PUT', '/scenario', { name: 'raid-degraded' })).status, 204);
  const changedAt = Date.now();
  await page.locator('#face-body', { hasText: 'DEGRADED' }).waitFor({ timeout: 1000 });
  assert.ok(Date.now() - changedAt < 1000);
  assert.ok(requests.includes('/faces'), 'the page fetched the faces again after the change notice');
  // The notice came over the open event stream, not a poll: no new /changes request was made.
  assert.equal(requests.filter((p) => p === '/changes').length, 0);
});

test('the clock advances by a duration typed on the page, with the keyboard alone', { skip }, async () => {
  await openConsole();
  const before = (await control('GET', '/clock')).body.now as number;
  await page.getByLabel('Advance by').fill('2h');
  await page.getByLabel('Advance by').press('Enter');
  await page.getByText('advance 2h: done').waitFor();
  const now = (await control('GET', '/clock')).body.now as number;
  assert.ok(now - before >= 7_200_000, `the virtual clock moved ${now - before} ms`);
  await page.getByLabel('Advance by').fill('two hours');
  await page.getByLabel('Advance by').press('Enter');
  await page.getByText(/a duration such as/).waitFor();
});

test('the clock shows frozen or running; a move made with curl shows on the page within one second', {
  skip,
}, async () => {
  await openConsole();
  await page.locator('#clock-mode', { hasText: /^frozen$/ }).waitFor({ timeout: 1000 });
  const shownTime = async () => Date.parse((await page.locator('#clock-now').getAttribute('datetime')) ?? '');
  const before = await shownTime();
  assert.equal(before, (await control('GET', '/clock')).body.now, 'the page shows the virtual time');
  await new Promise((resolve) => setTimeout(resolve, 1200));
  assert.equal(await shownTime(), before, 'a frozen clock stands still on the page');
  const moved = await control('POST', '/clock/advance', { ms: 86_400_000 });
  const movedAt = Date.now();
  await page
    .locator('#clock-now', { hasText: new Date(moved.body.now).toISOString() })
    .waitFor({ timeout: 1000 });
  assert.ok(Date.now() - movedAt < 1000);

  const running = await start({
    monitoringPort: 0,
    clock: { mode: 'running' },
    controlMounts: [consoleMount({ tokenRequired: false })],
  });
  const other = await browser.newPage();
  try {
    await other.goto(`${running.urls.control}/console`);
    await other.locator('#clock-mode', { hasText: /^running$/ }).waitFor({ timeout: 2000 });
    const first = Date.parse((await other.locator('#clock-now').getAttribute('datetime')) ?? '');
    // A running clock moves on the page by itself, without a notice from the simulator.
    const shownThere = async () =>
      Date.parse((await other.locator('#clock-now').getAttribute('datetime')) ?? '');
    let later = first;
    for (const deadline = Date.now() + 3000; later < first + 1000 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      later = await shownThere();
    }
    assert.ok(later >= first + 1000, `the running clock moved ${later - first} ms on the page`);
    assert.deepEqual(await axeViolations(other), []);
  } finally {
    await other.close();
    await running.close();
  }
});

test('the tile switch stops the data endpoint, shown on the page and on the wire', { skip }, async () => {
  await openConsole();
  await page.getByLabel('Monitoring tile on').uncheck();
  await page.locator('#face-status', { hasText: 'no answer' }).waitFor();
  assert.equal((await pbx.control.endpointStatus()).state, 'stopped');
  assert.equal((await control('GET', '/state')).body.monitoring.tileOn, false);
});

test('a forged cross-site POST is refused; the same request from curl works', { skip }, async () => {
  await control('POST', '/reset');
  // Another site: a page on another origin the user happens to visit.
  const evil: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>elsewhere</title><p>elsewhere</p>');
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const address = evil.address() as { port: number };
    const other = await browser.newPage();
    await other.goto(`http://localhost:${address.port}/`);
    const target = `${pbx.urls.control}/faults`;
    await other.evaluate(
      (url) =>
        fetch(url, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: '{"name":"render-error"}',
        }).then(() => undefined),
      target,
    );
    await other.close();
    assert.deepEqual((await control('GET', '/faults')).body.active, [], 'the forged POST changed nothing');
    const log = (await control('GET', '/module-log')).body as { message: string }[];
    assert.equal(log.filter((e) => /render-error/.test(e.message)).length, 0);
    // The very same request without a browser's cross-site marks does what it says.
    assert.equal((await control('POST', '/faults', { name: 'render-error' })).status, 204);
    assert.deepEqual((await control('GET', '/faults')).body.active, ['render-error']);
  } finally {
    evil.closeAllConnections();
    await new Promise((resolve) => evil.close(resolve));
  }
});

test('beyond loopback: the page without the token changes nothing; given once, every call carries it', {
  skip,
}, async () => {
  const token = 'console-test-token-0123456789';
  const guarded = await start({
    monitoringPort: 0,
    controlToken: token,
    controlMounts: [consoleMount({ tokenRequired: true })],
  });
  const other = await browser.newPage();
  try {
    const calls: { path: string; method: string; authorized: boolean }[] = [];
    other.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname !== '/console' && !url.pathname.endsWith('.js') && !url.pathname.endsWith('.css'))
        calls.push({
          path: url.pathname,
          method: r.method(),
          authorized: r.headers()['authorization'] === `Bearer ${token}`,
        });
    });
    await other.goto(`${guarded.urls.control}/console`);
    await other.getByLabel('Control token').waitFor();
    // Without the token the page shows nothing of the PBX and cannot change it.
    assert.equal(await other.getByLabel('Scenario to load').count(), 0);
    const unauthorized = await other.evaluate(async () => {
      const answer = await fetch('/scenario', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"raid-degraded"}',
      });
      return answer.status;
    });
    assert.equal(unauthorized, 401);
    assert.equal(pbxState(guarded).raid, null, 'nothing changed');
    await other.getByLabel('Control token').fill('not-the-token');
    await other.getByRole('button', { name: 'Use this token' }).click();
    await other.getByText('That token was refused.').waitFor();
    await other.getByLabel('Control token').fill(token);
    await other.getByRole('button', { name: 'Use this token' }).click();
    await other.getByLabel('Scenario to load').selectOption('raid-degraded');
    await other.getByRole('button', { name: 'Load scenario' }).click();
    await other.getByText('load raid-degraded: done').waitFor();
    assert.notEqual(pbxState(guarded).raid, null, 'the scenario was loaded');
    const afterToken = calls.slice(calls.findIndex((c) => c.authorized));
    assert.ok(afterToken.some((c) => c.method === 'PUT' && c.path === '/scenario'));
    assert.deepEqual(
      afterToken.filter((c) => !c.authorized),
      [],
      'every call after the token was given carries it',
    );
    assert.deepEqual(await axeViolations(other), []);
  } finally {
    await other.close();
    await guarded.close();
  }
});
