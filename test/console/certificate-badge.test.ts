import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { certificateBadge } from '../../src/certificate/certificate-badge.ts';
import { decodePng } from '../certify/render-svg.ts';
import { passedPredicate } from '../src/certificate/sample-certificate.ts';
import { type Browser, browserSkipReason, launchBrowser } from './browser.ts';

// Issue 33: the certificate's badge (certify-plugin --badge) in a real browser (Debian's Chromium
// through playwright-core, the console's harness): opened alone as an SVG document and shown in
// an <img> as a README shows it, each time at its own size, with its name, its colours and text.

const skip = browserSkipReason();
let browser: Browser;
let page: Page;
let dir: string;

before(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'pbx-badge-'));
  browser = await launchBrowser();
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function badgeFile(): Promise<{ path: string; width: number; labelWidth: number }> {
  const predicate = await passedPredicate({
    level: { value: 'values' },
    coverage: { value: { declared: 20, tracked: 3, notTraced: 0, watched: 2, labels: 23 } },
  });
  const svg = certificateBadge(predicate);
  const path = join(dir, 'certified.svg');
  await writeFile(path, svg);
  const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
  const labelWidth = Number(/<rect width="(\d+)" height="20" fill="#555"\/>/.exec(svg)?.[1]);
  return { path, width, labelWidth };
}

/** Grey label, green message (#4c1), white text in both halves, as the screenshot shows them. */
function assertDrawn(png: Buffer, width: number, labelWidth: number): void {
  const picture = decodePng(png);
  assert.equal(picture.width, width);
  assert.equal(picture.height, 20);
  const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - (want[i] ?? 0)) <= 24);
  assert.ok(near(picture.rgb(4, 3), [0x55, 0x55, 0x55]), `label ${picture.rgb(4, 3)}`);
  assert.ok(
    near(picture.rgb(labelWidth + 3, 3), [0x44, 0xcc, 0x11]),
    `message ${picture.rgb(labelWidth + 3, 3)}`,
  );
  const bright = (from: number, to: number) => {
    let n = 0;
    for (let x = from; x < to; x += 1)
      for (let y = 5; y < 16; y += 1) if (picture.rgb(x, y).every((v) => v > 200)) n += 1;
    return n;
  };
  assert.ok(bright(5, labelWidth - 5) > 20, 'the label text is drawn');
  assert.ok(bright(labelWidth + 5, width - 5) > 10, 'the message text is drawn');
}

test('the badge opened alone renders at its size, named "PBX certified: values · 23/23"', {
  skip,
}, async () => {
  const { path, width, labelWidth } = await badgeFile();
  await page.goto(pathToFileURL(path).href);
  const badge = page.getByRole('img', { name: 'PBX certified: values · 23/23' });
  const box = await badge.boundingBox();
  assert.deepEqual([box?.width, box?.height], [width, 20]);
  assertDrawn(await badge.screenshot(), width, labelWidth);
});

test('the badge in an <img>, as a README shows it, loads and draws the same', { skip }, async () => {
  const { width, labelWidth } = await badgeFile();
  await writeFile(
    join(dir, 'readme.html'),
    '<!doctype html><title>plug-in</title><img id="b" src="certified.svg" alt="PBX certified">',
  );
  await page.goto(pathToFileURL(join(dir, 'readme.html')).href);
  const image = page.locator('#b');
  await image.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  const natural = await image.evaluate((img) => {
    const loaded = img as unknown as { naturalWidth: number; naturalHeight: number };
    return [loaded.naturalWidth, loaded.naturalHeight];
  });
  assert.deepEqual(natural, [width, 20]);
  assertDrawn(await image.screenshot(), width, labelWidth);
});
