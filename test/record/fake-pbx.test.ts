import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { start } from '../../simulators/pbx/index.ts';
import { captureTcp } from '../../src/record/capture-tcp.ts';
import { diffRecordings, formatFinding } from '../../src/record/diff-command.ts';
import { importCommand } from '../../src/record/import-command.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { recordingStartOptions } from '../../src/record/recording-start.ts';
import { startFakePbx } from './fake-pbx.ts';
import { tempFolder, writeJson } from './support.ts';

const quiet = { write: () => true };

test('an independent fake PBX (test/fixtures/fake_pbx.py): recorded with its timing and close, redacted, imported, diffed and replayed byte for byte', async () => {
  const folder = await tempFolder();
  const fake = await startFakePbx();
  let replayed: Awaited<ReturnType<typeof start>> | undefined;
  try {
    const rules = await writeJson(join(folder.dir, 'rules.json'), {
      rules: [{ name: 'disk-serial', pattern: 'WD-[A-Z0-9]+', kind: 'serial' }],
    });
    const recorded = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 'target.json'), fake.target),
        out: join(folder.dir, 'berlin.json'),
        rules,
      },
      folder.dir,
    );
    const sample = recorded.value.samples[0]!;
    const raw = sample.dataEndpoint!.raw!;
    // Timing and close: three chunks 250 ms apart (500 ms in all; asserted with room for a loaded machine), then the fake's FIN.
    assert.ok(raw.chunks.length >= 3, JSON.stringify(raw.chunks));
    assert.ok(raw.chunks.at(-1)!.atMs - raw.chunks[0]!.atMs >= 250, JSON.stringify(raw.chunks));
    assert.deepEqual([raw.close.by, raw.close.how], ['server', 'fin']);
    // The earlier component answers HTTP with the raw agent text: no status line.
    assert.equal(sample.dataEndpoint!.http[0]!.statusLine, undefined);
    assert.equal((sample.xmlrpc!.wrongLogin!.fault as { faultString: string }).faultString, 'Login failed');
    const text = await readFile(recorded.recording, 'utf8');
    for (const secret of [
      'pbx-berlin-hq',
      'Berliner Beispiel Inc.',
      '192.0.2.61',
      '0791234567',
      'it-admin@berlin.example.org',
      'SIP/4461.phone-0000567d',
      'WD-WCAW31111111',
      'fake-secret-1',
      fake.host,
      'berlin-hq',
    ])
      assert.ok(!text.includes(secret), `the recording holds ${secret}`);
    assert.ok(text.includes('6.7.3.20') && text.includes('11.0.9.1'), 'versions are no addresses');

    // Import through the project's parsers: a scenario the simulator loads.
    const scenarioFile = join(folder.dir, 'berlin-scenario.json');
    assert.equal(
      await importCommand(
        recorded.recording,
        { out: scenarioFile },
        { cwd: folder.dir, stdout: quiet, stderr: process.stderr },
      ),
      0,
    );
    const scenario = JSON.parse(await readFile(scenarioFile, 'utf8')) as {
      state: { sip: { knownPhones: number }; raid: { controllerTable: string[] } };
    };
    assert.equal(scenario.state.sip.knownPhones, 167);
    assert.equal(scenario.state.raid.controllerTable[0]?.startsWith('Unit  UnitType'), true);

    // The fidelity diff against the simulator.
    const diff = diffRecordings(recorded.value);
    const defects = diff.findings.filter((finding) => finding.class === 'fidelity-defect');
    const byClass = (cls: string) => diff.findings.filter((finding) => finding.class === cls).length;
    process.stdout.write(
      `# record diff against the fake PBX: ${diff.findings.length} differences, ${defects.length} fidelity-defect, ${byClass('extension')} extension, ${byClass('unspecified')} unspecified\n${defects.map((d) => `#   ${formatFinding(d)}`).join('\n')}\n`,
    );
    assert.ok(byClass('unspecified') > 0 && byClass('extension') > 0);
    assert.ok(
      diff.findings.some(
        (f) => f.class === 'extension' && f.place === '<<<pbx_db_connections>>>' && f.side === 'simulator',
      ),
      'the earlier component has no db_connections section',
    );
    assert.ok(diff.findings.every((f) => f.clause.length > 0));

    // Replay with the recorded timing: the same bytes, the chunks still spread as recorded.
    const { scenario: state, replay } = recordingStartOptions(
      recorded.recording,
      folder.dir,
      'recorded',
      Date.now(),
    );
    replayed = await start({ scenario: state, replay, monitoringPort: 0, clock: { mode: 'frozen' } });
    const url = new URL(replayed.urls.monitoring!.replace('tcp:', 'http:'));
    const again = await captureTcp({ host: url.hostname, port: Number(url.port) });
    assert.equal(again.bytes.toString('utf8'), 'text' in raw.bytes ? raw.bytes.text : '');
    assert.ok(again.chunks.length >= 3, JSON.stringify(again.chunks));
    assert.ok(again.chunks.at(-1)!.atMs - again.chunks[0]!.atMs >= 250, JSON.stringify(again.chunks));
    const http = await captureTcp({
      host: url.hostname,
      port: Number(url.port),
      request: Buffer.from('GET /json HTTP/1.1\r\n\r\n'),
    });
    assert.equal(
      http.bytes.toString('utf8'),
      'text' in raw.bytes ? raw.bytes.text : '',
      'the recorded raw answer to HTTP too',
    );
  } finally {
    await replayed?.close();
    await fake.close();
    await folder.remove();
  }
});
