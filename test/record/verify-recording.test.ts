import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/cli/run.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { ownLoopback, startTestPbx, tempFolder, writeJson } from './support.ts';

/**
 * Clauses whose scenarios change the state and expect the answer to follow (a recording cannot):
 * cache lifetimes, RAID, backups, providers, sentinels, non-ASCII names, disk and update sensors.
 * Measured against `simulate --recording` of `healthy`: every other MON and XMLRPC clause passes
 * (106 of 129), see docs/recording.md.
 */
export const STATE_DEPENDENT = [
  'MON-CACHE-DEFAULT',
  'MON-CACHE-CONFIGURABLE',
  'MON-TEXT-LINUX-SCRIPT-FAILURE',
  'MON-TEXT-PBX',
  'MON-TEXT-PBX-RAID',
  'MON-TEXT-PBX-BACKUPS',
  'MON-TEXT-PBX-SIP-PROVIDER',
  'MON-LOCAL-BACKUP-SERVICES',
  'MON-XML-RAID',
  'MON-XML-CHANNELS-ACTIVE',
  'MON-JSON-SENTINEL',
  'MON-UTF8',
  'XMLRPC-DISK-IS-RAM',
  'XMLRPC-DISK-THRESHOLDS',
  'XMLRPC-UPDATE-VALUE',
  'XMLRPC-UPDATE-MAJOR',
  'XMLRPC-UPDATE-MINOR',
  'XMLRPC-PHONE-STATUS',
  'XMLRPC-BACKUP-ENTRIES',
  'XMLRPC-BACKUP-FAILED',
  'XMLRPC-BACKUP-ERROR-TEXT',
  'XMLRPC-PROVIDER-STATUS',
  'XMLRPC-ENDPOINT',
];

/** A selection over raw mode, HTTP formats, tile, licence, hosts list and the XML-RPC login. */
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
];

test('verify --target against simulate --recording: the stateless MON and XMLRPC scenarios pass on the recorded bytes', async () => {
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
    const tags = `(${SELECTION.map((id) => `@${id}`).join(' or ')}) and not (${STATE_DEPENDENT.map((id) => `@${id}`).join(' or ')})`;
    const verifyIo = captureIo(folder.dir);
    const code = await run(
      ['verify', '--target', targetFile, '--tags', tags, '--reports', join(folder.dir, 'reports'), '--quiet'],
      verifyIo,
    );
    assert.equal(code, 0, verifyIo.out() + verifyIo.err());
    assert.match(verifyIo.out(), /scenarios \(\d+ passed, 0 failed/);
  } finally {
    controller.abort();
    if (simulate) assert.equal(await simulate, 0);
    await pbx.handle.close();
    await folder.remove();
  }
});
