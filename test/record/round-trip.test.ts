import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Recording } from '../../simulators/pbx/index.ts';
import { start } from '../../simulators/pbx/index.ts';
import { sha256 } from '../../src/record/capture-tcp.ts';
import { diffRecordings } from '../../src/record/diff-command.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { recordingStartOptions } from '../../src/record/recording-start.ts';
import { recordPhoneSeries, servedText, startTestPbx, tempFolder, writeJson } from './support.ts';

/** Every raw fetch of a recording with its SHA-256: the data endpoint (raw, HTTP) and the XML-RPC bodies. */
function fetchHashes(recording: Recording): Map<string, string> {
  const hashes = new Map<string, string>();
  recording.samples.forEach((sample, index) => {
    const at = `sample ${index + 1}`;
    if (sample.dataEndpoint?.raw) hashes.set(`${at} raw`, sample.dataEndpoint.raw.sha256);
    for (const fetch of sample.dataEndpoint?.http ?? []) hashes.set(`${at} ${fetch.request}`, fetch.sha256);
    for (const [method, answer] of Object.entries(sample.xmlrpc ?? {}))
      hashes.set(`${at} XML-RPC ${method}`, sha256(answer.body));
    if (sample.package?.sha256) hashes.set(`${at} package`, sample.package.sha256);
  });
  return hashes;
}

const SCENARIOS: { name: string; timing: 'recorded' | 'none' }[] = [
  { name: 'healthy', timing: 'recorded' },
  { name: 'backup-failed', timing: 'none' },
  { name: 'raid-degraded', timing: 'none' },
  { name: 'trunk-unregistered', timing: 'none' },
  { name: 'values-unknown', timing: 'none' },
];

for (const { name, timing } of SCENARIOS) {
  test(`round trip (${name}, timing ${timing}): record the simulator, replay, record again: every fetch has the same SHA-256 and the diff finds no fidelity defect`, async () => {
    const folder = await tempFolder();
    const original = await startTestPbx({ scenario: name });
    let replayHandle: Awaited<ReturnType<typeof startTestPbx>> | undefined;
    try {
      const first = await recordCommand(
        {
          target: await writeJson(join(folder.dir, 'a-target.json'), original.target),
          out: join(folder.dir, 'a.json'),
        },
        folder.dir,
      );
      await original.handle.close();
      const { scenario, replay } = recordingStartOptions(first.recording, folder.dir, timing, Date.now());
      replayHandle = await startTestPbx({ scenario, replay });
      const second = await recordCommand(
        {
          target: await writeJson(join(folder.dir, 'b-target.json'), replayHandle.target),
          out: join(folder.dir, 'b.json'),
        },
        folder.dir,
      );
      const a = fetchHashes(first.value);
      const b = fetchHashes(second.value);
      assert.ok(a.size >= 11, `expected every face fetched, got ${[...a.keys()].join(', ')}`);
      assert.deepEqual([...b.entries()], [...a.entries()]);
      const same = [...a.entries()].filter(([fetch, hash]) => b.get(fetch) === hash).length;
      process.stdout.write(`# round trip ${name}: ${same} of ${a.size} fetches with the same SHA-256\n`);
      const diff = diffRecordings(first.value);
      assert.deepEqual(
        diff.findings.filter((finding) => finding.class === 'fidelity-defect'),
        [],
        'the simulator recorded and imported renders what it served',
      );
      const dump = await readFile(first.dump);
      assert.equal(sha256(dump), first.value.samples[0]?.dataEndpoint?.raw?.sha256);
    } finally {
      await original.handle.close();
      await replayHandle?.handle.close();
      await folder.remove();
    }
  });
}

test('a time series plays in order on the virtual clock', async () => {
  const folder = await tempFolder();
  let replayed: Awaited<ReturnType<typeof start>> | undefined;
  try {
    const phones = [139, 120, 98];
    const recorded = await recordPhoneSeries(folder.dir, phones);
    const texts = recorded.value.samples.map((sample) => sample.dataEndpoint?.raw?.bytes);
    assert.equal(texts.length, 3);
    for (const [i, n] of phones.entries())
      assert.match(JSON.stringify(texts[i]), new RegExp(`online_phones ${n}\\\\n`));
    const { scenario, replay } = recordingStartOptions(recorded.recording, folder.dir, 'none', Date.now());
    replayed = await start({ scenario, replay, monitoringPort: 0, clock: { mode: 'frozen' } });
    const data = () => servedText(replayed!);
    assert.match(await data(), /online_phones 139\n/);
    await replayed.control.advanceClock({ ms: 59_000 });
    assert.match(await data(), /online_phones 139\n/);
    await replayed.control.advanceClock({ ms: 1_000 });
    assert.match(await data(), /online_phones 120\n/);
    await replayed.control.advanceClock({ ms: 60_000 });
    assert.match(await data(), /online_phones 98\n/);
    await replayed.control.advanceClock({ ms: 600_000 });
    assert.match(await data(), /online_phones 98\n/, 'the last sample stays');
  } finally {
    await replayed?.close();
    await folder.remove();
  }
});
