import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/cli/run.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { REPLAY_NOT_VERIFIABLE } from '../../src/record/replay-limits.ts';
import type { CompatibilityReport } from '../../src/report/model.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { ownLoopback, startTestPbx, tempFolder, writeJson } from './support.ts';

/** A selection over raw mode, HTTP formats, tile, licence, hosts list, the XML-RPC login, the maintenance API and field lines. */
const SELECTION = [
  'MON-RAW-MODE',
  'MON-GET-CHECKMK',
  'MON-GET-XML',
  'MON-GET-JSON',
  'MON-QUERY-FORMAT',
  'MON-UNKNOWN-PATH',
  'MON-HTTP-HEADERS',
  'MON-HTTP-CONTENT-LENGTH',
  'MON-STATE-TILE-OFF',
  'MON-STATE-UNLICENSED',
  'MON-AUTH-UNLISTED-CLOSED',
  'MON-AUTH-HOSTS-CIDR',
  'MON-DEFAULT-FORMAT-CONFIGURABLE',
  'MON-ERR-RENDER-RAW',
  'XMLRPC-AUTH-PARAM',
  'XMLRPC-ERR-BAD-LOGIN',
  'XMLRPC-GMD-RETURN',
  'XMLRPC-GMD-TILE-OFF',
  'XMLRPC-GMDX-UNLICENSED',
  'XMLRPC-AD-NO-AUTH',
  'XMLRPC-INSTANCE-RENAME',
  'MAINT-AUTH-BEARER',
  'MAINT-BASE-PATH',
  'FIELD-ACCOUNTS-LINES',
  'FIELD-MODULES-LINE',
];

/** Clauses a replay cannot follow: their scenarios set a state and expect the answer to change. */
const STATE_DEPENDENT = Object.keys(REPLAY_NOT_VERIFIABLE);

test('docs/recording.md lists every clause a replayed recording cannot verify', async () => {
  const doc = await readFile(new URL('../../docs/recording.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Replay'), doc.indexOf('## Import'));
  const listed = [...section.matchAll(/`([A-Z]+(?:-[A-Z0-9]+)+)`/g)].map((match) => match[1]);
  assert.deepEqual([...new Set(listed)].sort(), [...STATE_DEPENDENT].sort());
});

test('verify --target against simulate --recording: the stateless scenarios pass on the recorded bytes, the state-dependent ones are not verifiable, exit 0 (issue 29, item 9)', async () => {
  const folder = await tempFolder();
  const pbx = await startTestPbx({ scenario: 'healthy' });
  const controller = new AbortController();
  let simulate: Promise<number> | undefined;
  try {
    const recorded = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 'lab.json'), pbx.target),
        out: join(folder.dir, 'lab-recording.json'),
      },
      folder.dir,
    );
    await pbx.handle.close();
    const host = await ownLoopback();
    const io = captureIo(folder.dir, { signal: controller.signal });
    simulate = run(
      [
        'simulate',
        '--recording',
        recorded.recording,
        '--timing',
        'none',
        '--no-fleet',
        '--clock',
        'frozen',
        '--host',
        host,
        '--port',
        '0',
        '--json',
      ],
      io,
    );
    const deadline = Date.now() + 20_000;
    while (!io.out().includes('\n') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const targetLine = io.out().split('\n')[0] ?? '';
    assert.ok(targetLine.startsWith('{'), `no target line: ${io.err()}`);
    const targetFile = join(folder.dir, 'replay-target.json');
    await writeFile(targetFile, targetLine);
    const tags = [...SELECTION, ...STATE_DEPENDENT].map((id) => `@${id}`).join(' or ');
    const verifyIo = captureIo(folder.dir);
    const code = await run(
      ['verify', '--target', targetFile, '--tags', tags, '--reports', join(folder.dir, 'reports'), '--quiet'],
      verifyIo,
    );
    assert.equal(code, 0, verifyIo.out() + verifyIo.err());
    assert.match(verifyIo.out(), /scenarios \(\d+ passed, 0 failed/);
    const report = JSON.parse(
      await readFile(join(folder.dir, 'reports', 'compatibility.json'), 'utf8'),
    ) as CompatibilityReport;
    const verdicts = new Map(
      report.interfaces.flatMap((face) => face.clauses.map((clause) => [clause.id, clause] as const)),
    );
    for (const id of STATE_DEPENDENT) {
      assert.equal(verdicts.get(id)?.verdict, 'not-verifiable', id);
      assert.match(verdicts.get(id)?.reason ?? '', /^the target replays a recording: /, id);
    }
    for (const id of SELECTION.filter((id) => !STATE_DEPENDENT.includes(id)))
      assert.equal(verdicts.get(id)?.verdict, 'pass', id);
  } finally {
    controller.abort();
    if (simulate) assert.equal(await simulate, 0);
    await pbx.handle.close();
    await folder.remove();
  }
});
