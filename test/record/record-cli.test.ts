import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Recording, streamBytes } from '../../simulators/pbx/index.ts';
import { run } from '../../src/cli/run.ts';
import { resizeChunks, sha256 } from '../../src/record/capture-tcp.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { startTestPbx, tempFolder, writeJson } from './support.ts';

/** The recording with one line of its raw agent text replaced. */
function withRawLine(recording: Recording, from: string, to: string): Recording {
  const copy = structuredClone(recording);
  const raw = copy.samples[0]!.dataEndpoint!.raw!;
  assert.ok('text' in raw.bytes && raw.bytes.text.includes(from), `no ${from}`);
  raw.bytes = { text: (raw.bytes as { text: string }).text.replace(from, to) };
  // A hand-edited recording stays consistent (issue 29 item 4): hash, length and chunks follow.
  const bytes = streamBytes(raw);
  Object.assign(raw, {
    sha256: sha256(bytes),
    length: bytes.length,
    chunks: resizeChunks(raw.chunks, bytes.length),
  });
  return copy;
}

test('record, record import and record diff from the command line: exit codes 0, 1 and 2 with one-line reasons', async () => {
  const folder = await tempFolder();
  const pbx = await startTestPbx();
  try {
    const target = await writeJson(join(folder.dir, 'target.json'), pbx.target);
    const usage = captureIo(folder.dir);
    assert.equal(await run(['record', '--out', 'x.json'], usage), 2);
    assert.match(usage.err(), /^pbx-conformance: record needs --target <file> and --out <file>\n$/);
    // The output path is checked before anything else, the target file included (issue 29, item 10).
    const badFolder = captureIo(folder.dir);
    assert.equal(
      await run(['record', '--target', 'no-such-target.json', '--out', 'target.json/x.json'], badFolder),
      2,
    );
    assert.match(
      badFolder.err(),
      /^pbx-conformance: --out: the folder of .*target\.json: .*target\.json is not a folder\n$/,
    );

    // A missing folder is made, as verify --reports does.
    const fresh = captureIo(folder.dir);
    assert.equal(
      await run(['record', '--target', target, '--out', 'test/recordings/a.json', '--timeout', '5s'], fresh),
      0,
      fresh.err(),
    );
    assert.match(fresh.out(), /^recording: .*test\/recordings\/a\.json\n/);
    assert.ok(JSON.parse(await readFile(join(folder.dir, 'test', 'recordings', 'a.json'), 'utf8')));

    const io = captureIo(folder.dir);
    assert.equal(
      await run(['record', '--target', target, '--out', 'lab.json', '--timeout', '5s'], io),
      0,
      io.err(),
    );
    assert.match(io.out(), /^recording: .*lab\.json\nCheckmk dump: .*lab\.checkmk\nredacted: /);

    const imported = captureIo(folder.dir);
    assert.equal(
      await run(['record', 'import', 'lab.json', '--out', 'lab-scenario.json'], imported),
      0,
      imported.err(),
    );
    const scenario = JSON.parse(await readFile(join(folder.dir, 'lab-scenario.json'), 'utf8')) as {
      name: string;
    };
    assert.equal(scenario.name, 'lab-scenario');

    const same = captureIo(folder.dir);
    assert.equal(await run(['record', 'diff', 'lab.json'], same), 0, same.out());
    assert.match(same.out(), /0 fidelity-defect/);

    const recording = JSON.parse(await readFile(join(folder.dir, 'lab.json'), 'utf8')) as Recording;
    await writeJson(
      join(folder.dir, 'odd.json'),
      withRawLine(recording, 'accept_all_macs false', 'accept_all_macs maybe'),
    );
    const defect = captureIo(folder.dir);
    assert.equal(await run(['record', 'diff', 'odd.json'], defect), 1);
    assert.match(
      defect.out(),
      /DEFECT \[FIELD-PBX-VALUES-MATCH\] agent-text <<<pbx>>> accept_all_macs: value differs recorded "maybe" other "false"/,
    );

    const twice = captureIo(folder.dir);
    assert.equal(await run(['record', 'diff', 'lab.json', 'lab.json', '--json'], twice), 0);
    assert.deepEqual(JSON.parse(twice.out()), { findings: [], defects: 0 });
    await writeJson(
      join(folder.dir, 'broken.json'),
      withRawLine(recording, 'total_accounts 155/0', 'total_accounts 155/3'),
    );
    const broken = captureIo(folder.dir);
    assert.equal(await run(['record', 'diff', 'lab.json', 'broken.json'], broken), 1);
    assert.match(
      broken.out(),
      /CHANGED \[FIELD-ACCOUNTS-LINES\] agent-text <<<pbx_accounts>>> total_accounts/,
    );
    assert.match(broken.out(), /DEFECT \[FIELD-KEY-VALUE-LINES\].*total_accounts '155\/3' is not <A>\/0/);

    await writeFile(join(folder.dir, 'nonsense.json'), '{"format":"something else"}');
    const unusable = captureIo(folder.dir);
    assert.equal(await run(['record', 'diff', 'nonsense.json'], unusable), 2);
    assert.match(
      unusable.err(),
      /^pbx-conformance: record diff: recording .*nonsense\.json: does not match schemas\/pbx-recording\.schema\.json/,
    );
    assert.equal(unusable.err().split('\n').length, 2);
    const missing = captureIo(folder.dir);
    assert.equal(await run(['simulate', '--recording', 'nope.json', '--no-fleet'], missing), 2);
    assert.match(missing.err(), /^pbx-conformance: recording .*nope\.json: cannot be read \(ENOENT\)\n$/);
  } finally {
    await pbx.handle.close();
    await folder.remove();
  }
});
