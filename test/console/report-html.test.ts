import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { renderHtml } from '../../src/report/render-html.ts';
import { sampleReport } from '../src/report/sample-report.ts';
import { axeViolations, type Browser, browserSkipReason, launchBrowser, screenshot } from './browser.ts';

// Issue 32: the compatibility report's HTML opened in the same browser as the console.

const skip = browserSkipReason();
let browser: Browser;
let dir: string;

before(async () => {
  if (skip) return;
  browser = await launchBrowser();
  dir = await mkdtemp(join(tmpdir(), 'pbx-report-html-'));
});

after(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the compatibility report renders, its filter works, a failure's evidence is collapsed and expands by keyboard", {
  skip,
}, async () => {
  const file = join(dir, 'compatibility.html');
  await writeFile(file, renderHtml(sampleReport()));
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href);
  const clauses = page.locator('.clause');
  const total = await clauses.count();
  assert.ok(total >= 6, `${total} clause cards`);
  await page.locator('#f-count', { hasText: `${total} shown` }).waitFor();
  await page.locator('#f-verdict').selectOption('fail');
  await page.locator('#f-count', { hasText: '2 shown' }).waitFor();
  assert.equal(await page.locator('.clause:not(.hidden)[data-verdict="fail"]').count(), 2);
  assert.equal(await page.locator('.clause:not(.hidden):not([data-verdict="fail"])').count(), 0);
  await page.locator('#f-verdict').selectOption('');
  await page.locator('#f-search').fill('MON-B');
  await page.locator('#f-count', { hasText: '1 shown' }).waitFor();
  const failure = page.locator('#MON-B');
  assert.equal(await failure.isVisible(), true);
  // The evidence of the failure: the failed step shows; the exchange on the wire is collapsed
  // and expands with the keyboard alone, escaped, not executed.
  await failure.getByText('Failed at').waitFor();
  const evidence = failure.locator('details.evidence');
  assert.equal(await evidence.count(), 1);
  assert.equal(await evidence.evaluate((d) => (d as { open: boolean }).open), false, 'collapsed at first');
  assert.equal(await failure.locator('.wire pre').first().isVisible(), false);
  const summary = evidence.locator('summary');
  assert.match((await summary.textContent()) ?? '', /^Evidence: 1 exchange \(HTTP GET \/xml\)/);
  await summary.focus();
  await page.keyboard.press('Enter');
  await failure.locator('.wire pre', { hasText: 'GET /xml HTTP/1.0' }).first().waitFor({ state: 'visible' });
  assert.equal(await evidence.evaluate((d) => (d as { open: boolean }).open), true);
  assert.match((await failure.locator('.wire').nth(1).textContent()) ?? '', /<script>alert\("x"\)<\/script>/);
  assert.equal(await page.locator('.wire script').count(), 0);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'report');
  await page.close();
});
