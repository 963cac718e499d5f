import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { type PbxHandle, pbxNow, type Recording, start } from '../../simulators/pbx/index.ts';
import { consoleMount } from '../../src/console/console-mount.ts';
import { consoleOptionsOf, type ReplayClock } from '../../src/console/console-options.ts';
import { recordingStartOptions } from '../../src/record/recording-start.ts';
import { recordPhoneSeries, servedText, tempFolder } from '../record/support.ts';
import { axeViolations, type Browser, browserSkipReason, launchBrowser, screenshot } from './browser.ts';

// Issue 32: the recording view of the console in a real browser. A time series of three samples,
// a minute apart, is recorded from the simulator and replayed as `simulate --recording` does; the
// page shows each sample and its timing, and marks the one the data endpoint serves now.

const skip = browserSkipReason();
const PHONES = [139, 120, 98];
let browser: Browser;
let replayed: PbxHandle;
let recording: Recording;
let page: Page;
let removeFolder: () => Promise<void> = async () => {};

before(async () => {
  if (skip) return;
  const folder = await tempFolder();
  removeFolder = folder.remove;
  const recorded = await recordPhoneSeries(folder.dir, PHONES);
  const started = recordingStartOptions(recorded.recording, folder.dir, 'recorded', Date.now());
  recording = started.recording;
  const clock: { current?: ReplayClock } = {};
  replayed = await start({
    scenario: started.scenario,
    replay: started.replay,
    monitoringPort: 0,
    clock: { mode: 'frozen' },
    controlMounts: [
      consoleMount(
        consoleOptionsOf(null, undefined, { recording, file: 'series.json', timing: 'recorded', clock }),
      ),
    ],
  });
  // As `simulate` does: the recording view reads the replayed PBX's own virtual clock.
  const pbx = replayed;
  clock.current = { startedAt: pbxNow(pbx), now: () => pbxNow(pbx) };
  browser = await launchBrowser();
  page = await browser.newPage();
});

after(async () => {
  await browser?.close();
  await replayed?.close();
  await removeFolder();
});

async function advance(ms: number): Promise<void> {
  const answer = await request(`${replayed.urls.control}/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  assert.equal(answer.statusCode, 200);
  await answer.body.dump();
}

/** What the replayed data endpoint serves now, as a monitoring client gets it. */
const served = () => servedText(replayed);

test('a replayed recording shows its samples and their timing, and marks the sample served now as the clock moves', {
  skip,
}, async () => {
  await page.goto(`${replayed.urls.control}/console#recording`);
  await page.locator('#live.on').waitFor();
  await page.getByRole('heading', { name: 'Recording series.json' }).waitFor();
  await page.getByText('Timing: recorded; 3 samples.').waitFor();
  const rows = page.locator('#recording-samples tbody tr');
  assert.equal(await rows.count(), 3);
  for (const [i, sample] of recording.samples.entries()) {
    const cells = await rows.nth(i).locator('td').allTextContents();
    const answers = (sample.dataEndpoint?.http.length ?? 0) + Object.keys(sample.xmlrpc ?? {}).length;
    assert.ok(answers > 0);
    assert.deepEqual(cells, [
      String(i),
      sample.recordedAt,
      `${(sample.atMs / 1000).toFixed(1)} s`,
      String(answers),
    ]);
  }
  assert.deepEqual(
    recording.samples.map((s) => s.atMs),
    [0, 60_000, 120_000],
    'the samples were recorded a minute apart on the virtual clock',
  );
  const current = page.locator('#recording-samples tbody tr[aria-current="true"]');
  assert.equal(await current.locator('td').first().textContent(), '0');
  assert.match(await served(), /online_phones 139\n/);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'recording');

  // The clock moved with curl: the page follows within a second, as the data endpoint does.
  for (const [index, phones] of [
    [1, 120],
    [2, 98],
  ] as const) {
    await advance(60_000);
    const movedAt = Date.now();
    await page
      .locator('#recording-samples tbody tr[aria-current="true"] td:first-child', { hasText: String(index) })
      .waitFor({ timeout: 1000 });
    assert.ok(Date.now() - movedAt < 1000);
    assert.match(await served(), new RegExp(`online_phones ${phones}\\n`));
  }
});
