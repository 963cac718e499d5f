import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { captureIo } from './capture-io.ts';

/** Two small XML-RPC features: 11 scenarios, quick on the embedded simulator. */
const TAGS =
  '@XMLRPC-AUTH-PARAM or @XMLRPC-AUTH-BEFORE-HANDLER or @XMLRPC-ERR-NO-LOGIN or @XMLRPC-ERR-BAD-LOGIN or @XMLRPC-ERR-UNKNOWN-METHOD or @XMLRPC-ERR-COLLECTION';

const verdicts = (report: CompatibilityReport) =>
  Object.fromEntries(
    report.interfaces.flatMap((face) =>
      face.clauses.map((c) => [
        c.id,
        { verdict: c.verdict, scenarios: c.scenarios.map((s) => `${s.uri}:${s.line} ${s.status}`).sort() },
      ]),
    ),
  );

test('3 verify shards merged with report merge give the per-clause verdicts of one serial run', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-verify-shards-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const verify = async (reports: string, extra: string[]) => {
    const io = captureIo(process.cwd());
    const code = await run(
      ['verify', '--quiet', '--tags', TAGS, '--reports', join(dir, reports), ...extra],
      io,
    );
    return { code, io };
  };
  const serial = await verify('serial', []);
  assert.equal(serial.code, 0, serial.io.err());
  const shards = [];
  for (const shard of ['1/3', '2/3', '3/3'])
    shards.push(await verify(shard.replace('/', '-of-'), ['--shard', shard]));
  const read = async (name: string) =>
    JSON.parse(await readFile(join(dir, name, 'compatibility.json'), 'utf8')) as CompatibilityReport;
  const parts = await Promise.all(['1-of-3', '2-of-3', '3-of-3'].map(read));
  const counts = parts.map((part) => part.scenarios.total);
  assert.ok(
    counts.every((n) => n > 0),
    `every shard ran a share (${counts.join(', ')})`,
  );
  const whole = await read('serial');
  assert.equal(
    counts.reduce((a, b) => a + b, 0),
    whole.scenarios.total,
    'the shards ran each scenario once between them',
  );
  assert.ok(
    parts.some((part) => Object.values(verdicts(part)).some((v) => v.verdict === 'not-run')),
    'a shard alone leaves clauses not run',
  );

  const io = captureIo(process.cwd());
  const code = await run(
    [
      'report',
      'merge',
      ...['1-of-3', '2-of-3', '3-of-3'].map((n) => join(dir, n, 'compatibility.json')),
      '--reports',
      join(dir, 'merged'),
    ],
    io,
  );
  assert.equal(code, 0, io.err());
  assert.match(io.out(), /^merged 3 reports\n/);
  const merged = await read('merged');
  assert.deepEqual(verdicts(merged), verdicts(whole));
  assert.deepEqual(merged.clauses, whole.clauses);
  assert.deepEqual(merged.scenarios, whole.scenarios);
  assert.deepEqual(merged.outcome, whole.outcome);
  const html = await readFile(join(dir, 'merged', 'compatibility.html'), 'utf8');
  const junit = await readFile(join(dir, 'merged', 'junit.xml'), 'utf8');
  assert.match(html, /XMLRPC-ERR-BAD-LOGIN/);
  assert.match(junit, /XMLRPC-ERR-BAD-LOGIN/);
});

test('report merge refuses a file that is not a compatibility report, in one line with exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-merge-bad-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const io = captureIo(dir);
  assert.equal(await run(['report', 'merge', 'missing.json'], io), 2);
  assert.match(io.err(), /^pbx-conformance: cannot read report missing\.json: .*\n$/);
});
