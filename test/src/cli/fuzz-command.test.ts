import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { captureIo } from './capture-io.ts';

test('fuzz: a fresh simulator process, totals per face, the three reports, exit 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-cli-'));
  try {
    const io = captureIo(dir);
    const code = await run(
      ['fuzz', '--faces', 'data,xmlrpc', '--runs', '60', '--seed', '9', '--reports', 'r', '--quiet'],
      io,
    );
    assert.equal(code, 0, io.out() + io.err());
    const out = io.out();
    assert.match(out, /^fuzz embedded: seed 9, 60 inputs per face, faces data,xmlrpc$/m);
    assert.match(out, /^data +60 +0 +0 +0 +0$/m);
    assert.match(out, /^xmlrpc +60 +0 +0 +0 +0$/m);
    assert.match(out, /^server RSS: start \d+ MB, peak \d+ MB, after \d+ MB/m);
    for (const file of ['compatibility.json', 'compatibility.html', 'junit.xml'])
      assert.ok(existsSync(join(dir, 'r', file)), file);
    const report = JSON.parse(readFileSync(join(dir, 'r', 'compatibility.json'), 'utf8')) as {
      interfaces: Array<{ clauses: Array<{ id: string; verdict: string }> }>;
    };
    const verdict = (id: string) =>
      report.interfaces.flatMap((i) => i.clauses).find((c) => c.id === id)?.verdict;
    assert.equal(verdict('MON-AUTH-UNLISTED-CLOSED'), 'pass');
    assert.equal(verdict('XMLRPC-ERR-UNKNOWN-METHOD'), 'pass');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fuzz: an unknown face or a malformed --path is a usage error (exit 2)', async () => {
  for (const argv of [
    ['fuzz', '--faces', 'data,nope'],
    ['fuzz', '--path', 'not a path'],
    ['fuzz', '--runs', '0'],
  ]) {
    const io = captureIo(process.cwd());
    assert.equal(await run(argv, io), 2, argv.join(' '));
    assert.match(io.err(), /pbx-conformance: /);
  }
});

// Issue 20, item 14: `--path` without `--seed` replayed a random input and passed; an index far
// beyond the run made fast-check generate every input before it, CPU-bound past 40 s.
test('fuzz: --path without --seed, beyond the run, or naming no generator is exit 2 with a reason', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['--path', 'xmlrpc-malformed/1'],
      /^pbx-conformance: --path replays an input of an earlier run: give that run's --seed/,
    ],
    [
      ['--seed', '1', '--runs', '10', '--path', 'xmlrpc-malformed/999999999999:1'],
      /^pbx-conformance: --path xmlrpc-malformed\/999999999999:1: input 999999999999 is beyond the \d+ inputs xmlrpc-malformed makes at --runs 10;/,
    ],
    [
      ['--seed', '1', '--path', 'nope/1'],
      /^pbx-conformance: --path names no generator of faces xmlrpc: 'nope' \(generators: xmlrpc-malformed, /,
    ],
  ];
  for (const [args, reason] of cases) {
    const io = captureIo(process.cwd());
    const code = await run(['fuzz', '--faces', 'xmlrpc', '--quiet', ...args], io);
    assert.equal(code, 2, `${args.join(' ')}: ${io.err()}`);
    assert.match(io.err(), reason);
    assert.equal(io.err().trim().split('\n').length, 1, io.err());
  }
});

// Issue 20, item 22: `fuzz --help` printed the default of `--faces` twice.
test('fuzz --help names the default of --faces once', async () => {
  const io = captureIo(process.cwd());
  await run(['fuzz', '--help'], io);
  const line =
    io
      .out()
      .split('\n')
      .find((l) => l.includes('--faces')) ?? '';
  assert.equal(line.match(/default/g)?.length, 1, line);
});
