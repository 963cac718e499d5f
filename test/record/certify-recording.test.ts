import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/cli/run.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { startFakePbx } from './fake-pbx.ts';
import { tempFolder, writeJson } from './support.ts';

const PLUGIN = fileURLToPath(new URL('../../examples/plugins/check_pbx_backups.py', import.meta.url));

/** certify-plugin on `healthy` and the recording, without generated states, with the example plug-in. */
const certifyArgs = (recording: string, expectations: string, reports: string) => [
  'certify-plugin',
  '--expectations',
  expectations,
  '--scenario',
  'healthy',
  '--recording',
  recording,
  '--runs',
  '0',
  '--reports',
  reports,
  '--quiet',
  '--',
  'python3',
  PLUGIN,
  '-H',
  '{host}',
  '-p',
  '{port}',
];

test('certify-plugin --recording: the example plug-in is certified against a recording of the independent fake PBX, beside the catalog', async () => {
  const folder = await tempFolder();
  const fake = await startFakePbx();
  try {
    const recorded = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 'target.json'), fake.target),
        out: join(folder.dir, 'berlin.json'),
      },
      folder.dir,
    );
    await fake.close();
    // The fake's newest SMB run failed to mount and its MAIL run was too big: CRITICAL.
    await writeFile(
      join(folder.dir, 'expectations.yaml'),
      [
        'plugin: check_pbx_backups',
        'scenarios:',
        '  healthy: { state: OK }',
        "  recording-berlin: { state: CRITICAL, text: ['last backup failed'], perfdata: [backup_targets, backups_failed] }",
        '',
      ].join('\n'),
    );
    const io = captureIo(folder.dir, { env: process.env });
    const code = await run(certifyArgs(recorded.recording, 'expectations.yaml', 'reports'), io);
    assert.equal(code, 0, io.out() + io.err());
    const junit = await readFile(join(folder.dir, 'reports', 'junit.xml'), 'utf8');
    assert.doesNotMatch(junit, /<failure/);
    // The recording is one of the runs, judged on the vendor's expectation for it.
    const report = JSON.parse(await readFile(join(folder.dir, 'reports', 'compatibility.json'), 'utf8'));
    const agrees = report.interfaces[0].clauses.find(
      (c: { id: string }) => c.id === 'PLUGIN-STATE-AGREES-WITH-PBX',
    );
    assert.equal(agrees.verdict, 'pass');
    assert.ok(
      agrees.scenarios.some((s: { name: string }) => s.name === 'recording-berlin'),
      JSON.stringify(agrees.scenarios.map((s: { name: string }) => s.name)),
    );
    // A wrong expectation on the recording fails: the verdict is earned by the plug-in on the recorded bytes.
    await writeFile(
      join(folder.dir, 'wrong.yaml'),
      'plugin: check_pbx_backups\nscenarios:\n  recording-berlin: { state: OK }\n',
    );
    const wrong = captureIo(folder.dir, { env: process.env });
    assert.equal(await run(certifyArgs(recorded.recording, 'wrong.yaml', 'reports2'), wrong), 1);
  } finally {
    await fake.close();
    await folder.remove();
  }
});
