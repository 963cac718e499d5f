import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Recording } from '../../simulators/pbx/index.ts';
import { start, streamBytes } from '../../simulators/pbx/index.ts';
import { captureTcp } from '../../src/record/capture-tcp.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { recordingStartOptions } from '../../src/record/recording-start.ts';
import { startTestPbx, tempFolder, writeJson } from './support.ts';

test('simulate --recording: a raw sample recorded as one chunk per byte, all at the same moment, is served whole (issue 29 item 1)', async () => {
  const folder = await tempFolder();
  const original = await startTestPbx({ scenario: 'healthy' });
  let replayed: Awaited<ReturnType<typeof start>> | undefined;
  try {
    const recorded = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 't.json'), original.target),
        out: join(folder.dir, 'a.json'),
      },
      folder.dir,
    );
    await original.handle.close();
    const recording = structuredClone(recorded.value) as Recording;
    const raw = recording.samples[0]?.dataEndpoint?.raw;
    assert.ok(raw, 'the recording has a raw fetch');
    const bytes = streamBytes(raw);
    assert.ok(bytes.length > 5_000, `a raw answer of ${bytes.length} bytes`);
    const atMs = raw.chunks[0]?.atMs ?? 1;
    raw.chunks = Array.from({ length: bytes.length }, () => ({ atMs, length: 1 }));
    const file = await writeJson(join(folder.dir, 'per-byte.json'), recording);
    const { scenario, replay } = recordingStartOptions(file, folder.dir, 'recorded', Date.now());
    replayed = await start({ scenario, replay, monitoringPort: 0, clock: { mode: 'frozen' } });
    const url = new URL(replayed.urls.monitoring!.replace('tcp:', 'http:'));
    const got = await captureTcp({ host: url.hostname, port: Number(url.port), timeoutMs: 15_000 });
    assert.equal(got.bytes.length, bytes.length);
    assert.ok(got.bytes.equals(bytes), 'the same bytes, in order');
    assert.deepEqual({ by: got.close.by, how: got.close.how }, { by: 'server', how: 'fin' });
  } finally {
    await original.handle.close();
    await replayed?.close();
    await folder.remove();
  }
});
