/**
 * Issue 20, item 10: a CI job that runs its checks against `simulate` can neither leak the
 * simulator nor read a stale target file. `--target-file` replaces an earlier run's file only
 * when every face listens (written whole) and removes it at the stop; `simulate … -- <command>`
 * runs the command while the simulator listens, passes a stop on to it, and exits with its code.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { captureIo } from './capture-io.ts';

const SIMULATE = [
  'simulate',
  '--no-fleet',
  '--port',
  '0',
  '--clock',
  'frozen',
  '--target-file',
  'target.json',
];

/** A child that reads the target file and checks the faces it names answer. */
const CHECK_TARGET = `
const target = JSON.parse(require('node:fs').readFileSync('target.json', 'utf8'));
if (target.stale) { console.log('stale target file'); process.exit(9); }
fetch(target.pbx.controlUrl + '/scenarios').then(
  (response) => { console.log('web answered', response.status); process.exit(response.ok ? 3 : 8); },
  () => { console.log('web did not answer'); process.exit(7); },
);
`;

test('simulate --target-file -- <command>: the command sees a fresh target file; its exit code is the exit code; nothing is left', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-simulate-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'target.json'), '{"stale":true}\n');
  const io = captureIo(dir, { env: process.env });
  const code = await run([...SIMULATE, '--', process.execPath, '-e', CHECK_TARGET], io);
  assert.equal(code, 3, io.out() + io.err());
  assert.match(io.out(), /^web answered 200$/m);
  assert.match(io.err(), /stopping the simulator/);
  assert.deepEqual(await readdir(dir), [], 'the target file is removed at the stop, no temporary file left');
});

test('a stop of the simulator (SIGTERM, Ctrl-C) is passed on to the command and both end', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-simulate-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const controller = new AbortController();
  const io = captureIo(dir, { env: process.env, signal: controller.signal });
  const waiting = run(
    [
      ...SIMULATE,
      '--',
      process.execPath,
      '-e',
      "process.on('SIGTERM', () => { console.log('told to stop'); process.exit(0); }); setInterval(() => {}, 1000); console.log('ready');",
    ],
    io,
  );
  while (!io.out().includes('ready')) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(existsSync(join(dir, 'target.json')));
  controller.abort();
  assert.equal(await waiting, 0, io.out() + io.err());
  assert.match(io.out(), /told to stop/);
  assert.equal(existsSync(join(dir, 'target.json')), false);
});

test('a command that cannot start is a harness error (exit 2, one line), and the simulator stops', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-simulate-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const io = captureIo(dir, { env: process.env });
  assert.equal(await run([...SIMULATE, '--', 'no-such-command-pbx'], io), 2);
  assert.match(io.err(), /^pbx-conformance: command not found: no-such-command-pbx$/m);
  assert.deepEqual(await readdir(dir), []);
});
