import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { captureIo } from './capture-io.ts';

function assertOneErrorLine(text: string, pattern: RegExp): void {
  const lines = text.split('\n').filter((line) => line.length > 0);
  assert.equal(lines.length, 1, text);
  assert.match(lines[0] ?? '', /^pbx-conformance: /);
  assert.match(lines[0] ?? '', pattern);
  assert.equal(/\n\s+at /.test(text), false, 'no stack trace');
}

test('verify with a missing target file is a harness error: exit 2, one line', async () => {
  const io = captureIo(tmpdir());
  assert.equal(await run(['verify', '--target', '/nonexistent'], io), 2);
  assertOneErrorLine(io.err(), /target file \/nonexistent does not exist/);
  assert.equal(io.out(), '');
});

test('verify with a target file that is not JSON is a harness error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-cli-'));
  try {
    await writeFile(join(dir, 'target.json'), 'name = lab\n');
    const io = captureIo(dir);
    assert.equal(await run(['verify', '--target', 'target.json'], io), 2);
    assertOneErrorLine(io.err(), /target\.json is not valid JSON/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an unknown command or a bad option value is one line and a non-zero exit', async () => {
  const unknown = captureIo(tmpdir());
  assert.equal(await run(['frobnicate'], unknown), 2);
  assertOneErrorLine(unknown.err(), /unknown command 'frobnicate'/);

  const typo = captureIo(tmpdir());
  assert.equal(await run(['verfy'], typo), 2);
  assertOneErrorLine(typo.err(), /Did you mean verify\?/);

  const badPort = captureIo(tmpdir());
  assert.equal(await run(['simulate', '--port', '70000'], badPort), 2);
  assertOneErrorLine(badPort.err(), /port number/);

  const badClock = captureIo(tmpdir());
  assert.equal(await run(['simulate', '--clock', 'sideways'], badClock), 2);
  assertOneErrorLine(badClock.err(), /Allowed choices are running, frozen/);
});

test('an unknown command with --help says unknown command, with the closest name, and exits 2 (issue 29, item 13)', async () => {
  for (const argv of [
    ['verfy', '--help'],
    ['-h', 'verfy'],
    ['report', 'mrge', '--help'],
  ]) {
    const io = captureIo(tmpdir());
    assert.equal(await run(argv, io), 2, argv.join(' '));
    assertOneErrorLine(io.err(), /unknown command '(verfy|mrge)' \(Did you mean (verify|merge)\?\)/);
    assert.equal(io.out(), '', 'no help printed');
  }
  const unknown = captureIo(tmpdir());
  assert.equal(await run(['frobnicate', '--help'], unknown), 2);
  assertOneErrorLine(unknown.err(), /unknown command 'frobnicate'/);
  // Known commands and groups still show their help; `help <command>` is commander's own.
  for (const argv of [['report', '--help'], ['record', '--help'], ['help', 'verify'], ['--help']]) {
    const io = captureIo(tmpdir());
    assert.equal(await run(argv, io), 0, argv.join(' '));
    assert.match(io.out(), /^Usage: pbx-conformance/);
  }
});

test('help and version go to stdout with exit 0', async () => {
  const help = captureIo(tmpdir());
  assert.equal(await run(['verify', '--help'], help), 0);
  assert.match(help.out(), /--target <file>/);
  assert.equal(help.err(), '');

  const version = captureIo(tmpdir());
  assert.equal(await run(['--version'], version), 0);
  // The CLI's semver, the catalog's format and fingerprint, then one line per spec judged.
  assert.match(
    version.out(),
    /^pbx-conformance \d+\.\d+\.\d+\ncatalog: features\/clauses\.yaml format \d+ sha256:[0-9a-f]{12}\nspecs judged:\n( {2}[a-z-]+\.md sha256:[0-9a-f]{12}\n)+$/,
  );
});

test('every command documents the exit codes in its --help', async () => {
  for (const command of [[], ['verify'], ['simulate'], ['endpoint'], ['resolver-check']]) {
    const io = captureIo(process.cwd());
    assert.equal(await run([...command, '--help'], io), 0);
    assert.match(io.out(), /Exit codes \(every command\):\n {2}0 {2}passed/, command.join(' '));
    assert.match(io.out(), /\n {2}1 {2}conformance failure/);
    assert.match(io.out(), /\n {2}2 {2}usage or harness error/);
  }
});
