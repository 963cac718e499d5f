import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Recording } from '../../simulators/pbx/index.ts';
import { run } from '../../src/cli/run.ts';
import { loadRecording } from '../../src/record/load-recording.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { startTestPbx, tempFolder, writeJson } from './support.ts';

/**
 * `simulate --recording` (and every command that loads a recording) checks each sample against
 * its own bytes and names the JSON path of the first inconsistency (issue 29 item 4). Each case
 * takes a real recording of the simulator and breaks one thing in it.
 */

let folder: Awaited<ReturnType<typeof tempFolder>>;
let recorded: Recording;

before(async () => {
  folder = await tempFolder();
  const pbx = await startTestPbx({ scenario: 'healthy' });
  try {
    const result = await recordCommand(
      { target: await writeJson(join(folder.dir, 't.json'), pbx.target), out: join(folder.dir, 'good.json') },
      folder.dir,
    );
    recorded = result.value;
  } finally {
    await pbx.handle.close();
  }
});
after(() => folder.remove());

/** A copy of the recording, broken by `change`, written to a file of its own. */
async function broken(name: string, change: (recording: Recording) => void): Promise<string> {
  const copy = structuredClone(recorded);
  change(copy);
  return writeJson(join(folder.dir, `${name}.json`), copy);
}

const raw = (recording: Recording) => recording.samples[0]!.dataEndpoint!.raw!;
const fetchOf = (recording: Recording, path: string) => {
  const found = recording.samples[0]!.dataEndpoint!.http.find((fetch) => fetch.request === `GET ${path}`);
  assert.ok(found, `the recording has GET ${path}`);
  return found;
};
const indexOf = (recording: Recording, path: string) =>
  recording.samples[0]!.dataEndpoint!.http.findIndex((fetch) => fetch.request === `GET ${path}`);

test('the recording as written loads', async () => {
  assert.doesNotThrow(() => loadRecording(join(folder.dir, 'good.json')));
});

const CASES: {
  name: string;
  change: (recording: Recording) => void;
  path: (recording: Recording) => string;
}[] = [
  {
    name: 'a raw length of 1 GB',
    change: (r) => {
      raw(r).length = 1_000_000_000;
    },
    path: () => '$.samples[0].dataEndpoint.raw.length',
  },
  {
    name: 'a chunk length of 2^53',
    change: (r) => {
      raw(r).chunks[0]!.length = 2 ** 53;
    },
    path: () => '$.samples[0].dataEndpoint.raw.chunks[0].length',
  },
  {
    name: 'chunks that add up to less than the bytes',
    change: (r) => {
      raw(r).chunks = [{ atMs: 1, length: 10 }];
    },
    path: () => '$.samples[0].dataEndpoint.raw.chunks',
  },
  {
    name: 'a chunk timed before the one ahead of it',
    change: (r) => {
      const total = raw(r).length;
      raw(r).chunks = [
        { atMs: 5, length: 1 },
        { atMs: 2, length: total - 1 },
      ];
    },
    path: () => '$.samples[0].dataEndpoint.raw.chunks[1].atMs',
  },
  {
    name: 'a wrong sha256',
    change: (r) => {
      raw(r).sha256 = '0'.repeat(64);
    },
    path: () => '$.samples[0].dataEndpoint.raw.sha256',
  },
  {
    name: 'invalid base64',
    change: (r) => {
      const stream = raw(r);
      stream.bytes = { base64: 'PDw8!!bm90IGJhc2U2NA==' };
    },
    path: () => '$.samples[0].dataEndpoint.raw.bytes.base64',
  },
  {
    name: 'base64 without its padding',
    change: (r) => {
      raw(r).bytes = { base64: 'PDw8' + 'YQ' };
    },
    path: () => '$.samples[0].dataEndpoint.raw.bytes.base64',
  },
  {
    name: 'a Content-Length of 1 GB',
    change: (r) => {
      const fetch = fetchOf(r, '/checkmk');
      const header = fetch.headers!.find(([name]) => name.toLowerCase() === 'content-length')!;
      header[1] = '1000000000';
    },
    path: (r) => {
      const fetch = fetchOf(r, '/checkmk');
      const at = fetch.headers!.findIndex(([name]) => name.toLowerCase() === 'content-length');
      return `$.samples[0].dataEndpoint.http[${indexOf(r, '/checkmk')}].headers[${at}]`;
    },
  },
  {
    name: 'a bodyOffset past the body',
    change: (r) => {
      const fetch = fetchOf(r, '/json');
      fetch.bodyOffset = fetch.length + 1;
    },
    path: (r) => `$.samples[0].dataEndpoint.http[${indexOf(r, '/json')}].bodyOffset`,
  },
  {
    name: 'a bodyOffset inside the head',
    change: (r) => {
      fetchOf(r, '/xml').bodyOffset = 5;
    },
    path: (r) => `$.samples[0].dataEndpoint.http[${indexOf(r, '/xml')}].bodyOffset`,
  },
  {
    name: 'an XML-RPC Content-Length that is not its body',
    change: (r) => {
      const answer = r.samples[0]!.xmlrpc!.getMonitoringData!;
      const header = answer.headers.find(([name]) => name.toLowerCase() === 'content-length')!;
      header[1] = String(Number(header[1]) + 1);
    },
    path: () => '$.samples[0].xmlrpc.getMonitoringData.headers',
  },
];

for (const { name, change, path } of CASES) {
  test(`simulate --recording refuses ${name}: exit 2, one line naming the JSON path`, async () => {
    const file = await broken(name.replace(/\W+/g, '-'), change);
    const expected = path(recorded);
    assert.throws(
      () => loadRecording(file),
      (error: Error) => error.message.includes(`inconsistent at ${expected}`),
      `expected the path ${expected}`,
    );
    const io = captureIo(folder.dir, { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--recording', file, '--port', '0', '--no-fleet'], io), 2);
    assert.equal(io.out(), '', 'nothing started');
    const line = io.err();
    assert.equal(line.split('\n').length, 2, `one line: ${line}`);
    assert.ok(line.includes(`inconsistent at ${expected}`), line);
  });
}
