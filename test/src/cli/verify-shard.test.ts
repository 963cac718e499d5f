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
  // Shards started alike share a derived run id; the serial run (1/1) is another run.
  const runId = parts[0]?.metadata.run?.id ?? '';
  assert.match(runId, /^run-[0-9a-f]{16}$/);
  assert.deepEqual(
    parts.map((part) => part.metadata.run),
    [1, 2, 3].map((index) => ({ id: runId, shard: { index, total: 3 } })),
  );
  assert.notEqual(whole.metadata.run?.id, runId);
  assert.match(io.out(), new RegExp(`^merged 3 of 3 shards of run ${runId}\n`));
  const merged = await read('merged');
  assert.deepEqual(verdicts(merged), verdicts(whole));
  assert.deepEqual(merged.clauses, whole.clauses);
  assert.deepEqual(merged.scenarios, whole.scenarios);
  assert.deepEqual(merged.outcome, whole.outcome);
  const html = await readFile(join(dir, 'merged', 'compatibility.html'), 'utf8');
  const junit = await readFile(join(dir, 'merged', 'junit.xml'), 'utf8');
  assert.match(html, /XMLRPC-ERR-BAD-LOGIN/);
  assert.match(junit, /XMLRPC-ERR-BAD-LOGIN/);

  // What does not belong together is refused with exit 2 and one line, before anything is written (issue 29, item 3).
  const shardFile = (n: number) => join(dir, `${n}-of-3`, 'compatibility.json');
  const merge = async (files: string[], extra: string[] = []) => {
    const io = captureIo(process.cwd());
    const code = await run(['report', 'merge', ...files, '--reports', join(dir, 'refused'), ...extra], io);
    return { code, out: io.out(), err: io.err() };
  };
  for (const [files, reason] of [
    [[shardFile(1), shardFile(1), shardFile(2), shardFile(3)], /shard 1\/3 is given twice/],
    [[shardFile(1)], /shards 2\/3, 3\/3 of run run-[0-9a-f]+ missing/],
    [[shardFile(1), join(dir, 'merged', 'compatibility.json')], /is already a merged report/],
    [[shardFile(1), join(dir, 'serial', 'compatibility.json')], /is of run run-[0-9a-f]+, .* of run/],
  ] as const) {
    const refused = await merge([...files]);
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.err, new RegExp(`^pbx-conformance: .*${reason.source}.*\n$`));
  }
  await assert.rejects(readFile(join(dir, 'refused', 'compatibility.json')));
  const partial = await merge([shardFile(1), shardFile(3)], ['--allow-partial']);
  assert.equal(partial.code, 0, partial.err);
  assert.match(partial.out, /^merged 2 of 3 shards of run .* \(PARTIAL: shard 2\/3 missing\)\n/);
  const partialReport = await read('refused');
  assert.deepEqual(partialReport.metadata.run?.merged, { total: 3, shards: [1, 3], partial: true });
  assert.match(
    await readFile(join(dir, 'refused', 'compatibility.html'), 'utf8'),
    /PARTIAL: shard 2 missing/,
  );
});

test('report merge refuses a file that is not a compatibility report, in one line with exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-merge-bad-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const io = captureIo(dir);
  assert.equal(await run(['report', 'merge', 'missing.json'], io), 2);
  assert.match(io.err(), /^pbx-conformance: cannot read report missing\.json: .*\n$/);
});
