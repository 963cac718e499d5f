import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadScenarioFile } from '../../simulators/pbx/index.ts';
import { splitCommandLine } from '../../src/certify/command-line.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { certify, clauseOf, pythonPlugin, tempDir, throwawayPlugin, verdictOf } from './support.ts';

/* `certify-plugin` end to end with small throwaway plug-ins (docs/certify-plugin.md). */

test('harness and usage errors exit 2 with one line, before any scenario runs', async (t) => {
  const dir = await tempDir(t);
  const ok = await throwawayPlugin(dir, 'ok.sh', '#!/bin/sh\necho "OK - fine"\n');
  await writeFile(join(dir, 'bad.yaml'), 'scenarios:\n  healthy: { state: OK, colour: red }\n');
  await writeFile(join(dir, 'unknown.yaml'), 'scenarios:\n  healty: { state: OK }\n');
  const cases: [string[], RegExp][] = [
    [
      ['--', './missing.py', '{host}'],
      /^pbx-conformance: plug-in not found or not executable: \.\/missing\.py$/,
    ],
    [['--', 'no-such-check-plugin'], /^pbx-conformance: plug-in not found in PATH: no-such-check-plugin$/],
    [
      ['--expectations', 'bad.yaml', '--', ok],
      /^pbx-conformance: expectations file bad\.yaml: unknown key "colour" at \/scenarios\/healthy$/,
    ],
    // Issue 20, item 22: an unknown scenario name gets the nearest known one.
    [['--expectations', 'unknown.yaml', '--', ok], /unknown scenario 'healty' \(did you mean 'healthy'\?\)/],
    [['--expectations', 'none.yaml', '--', ok], /expectations file none\.yaml cannot be read/],
    [['--scenario', 'nope', '--', ok], /unknown scenario 'nope' \(see certify-plugin --list-scenarios\)$/],
    [
      ['--scenario', 'backup-faild', '--', ok],
      /unknown scenario 'backup-faild' \(did you mean 'backup-failed'\?\)/,
    ],
    [['--', ok, '{hots}'], /unknown placeholder \{hots\}/],
    [[`${ok} 'unterminated`], /unterminated single quote/],
    [[], /missing the plug-in command/],
    [['--runs', 'x', '--', ok], /--runs/],
  ];
  for (const [args, reason] of cases) {
    const result = await certify(dir, args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.err}`);
    assert.match(result.err.trim(), reason, args.join(' '));
    assert.equal(result.err.trim().split('\n').length, 1, result.err);
  }
  assert.deepEqual(await readdir(dir), ['bad.yaml', 'ok.sh', 'unknown.yaml']);
});

test('--list-scenarios lists the named scenarios and the field situations', async (t) => {
  const dir = await tempDir(t);
  const result = await certify(dir, ['--list-scenarios']);
  assert.equal(result.code, 0);
  const names = result.out
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(/\s+/)[0]);
  for (const name of [
    'healthy',
    'backup-failed',
    'large',
    'values-unknown',
    'endpoint-down',
    'host-unlisted',
    'slow-answer',
    'extension',
    'render-error',
    'non-ascii-names',
  ])
    assert.ok(names.includes(name), name);
});

test('a one-string command line is split, and the auth value never reaches a report', async (t) => {
  const dir = await tempDir(t);
  // Echoes its arguments (the auth value among them) to stdout and stderr.
  const echo = await throwawayPlugin(
    dir,
    'echo.sh',
    '#!/bin/sh\necho "OK - $* | a=1"\necho "debug: $4" >&2\n',
  );
  const result = await certify(dir, [
    '--scenario',
    'healthy',
    '--reports',
    'out',
    `${echo} {host} {port} '{login}' "{auth}" {xmlrpc}?de.vendor.pbx.auth={auth}`,
  ]);
  assert.equal(result.code, 0, result.out + result.err);
  const auth = xmlRpcAuthValue('123', 'Pass123');
  const secret = auth.slice(auth.indexOf(':') + 1);
  const run = verdictOf(await result.report(), 'healthy').run;
  assert.match(
    String(run?.request),
    /echo\.sh 127\.\d+\.\d+\.\d+ \d+ 123 \{auth\} 'http:\/\/127\.\d+\.\d+\.\d+:\d+\/xml-rpc\?de\.vendor\.pbx\.auth=\{auth\}'$/,
  );
  assert.match(String(run?.response), /^OK - 127\.\d+\.\d+\.\d+ \d+ 123 \{auth\} http/);
  assert.equal(run?.details?.['stderr'], 'debug: {auth}\n');
  for (const file of ['compatibility.json', 'compatibility.html', 'junit.xml', 'served/healthy.txt']) {
    const text = await readFile(join(dir, 'out', file), 'utf8');
    assert.ok(!text.includes(secret.slice(0, 16)), `${file} holds the auth value`);
  }
  assert.ok(!result.out.includes(secret.slice(0, 16)));
  assert.deepEqual(splitCommandLine(`${echo} "{auth}"`), [echo, '{auth}']);
});

test('a plug-in that reads the extension differently from its plain twin fails', async (t) => {
  const dir = await tempDir(t);
  // Warns on any line it does not know: unknown entries are not ignored.
  const strict = await throwawayPlugin(
    dir,
    'strict.py',
    pythonPlugin("if 'zz_' in text:\n    print('WARNING - unknown line'); sys.exit(1)\nprint('OK - fine')"),
  );
  const result = await certify(dir, [
    '--scenario',
    'extension',
    '--reports',
    'out',
    '--',
    strict,
    '{host}',
    '{port}',
  ]);
  assert.equal(result.code, 1);
  const report = await result.report();
  assert.equal(verdictOf(report, 'healthy').verdict, 'pass');
  const extension = verdictOf(report, 'extension');
  assert.equal(extension.verdict, 'fail');
  assert.equal(
    extension.failure,
    'PLUGIN-IGNORES-UNKNOWN: state WARNING differs from the plain twin healthy (OK): unknown entries must be ignored',
  );
});

test('invalid perfdata and exit codes outside 0-3 fail every scenario they occur in', async (t) => {
  const dir = await tempDir(t);
  const bad = await throwawayPlugin(dir, 'bad.sh', '#!/bin/sh\necho "OK - fine | used=5 GB"\nexit 0\n');
  const four = await throwawayPlugin(dir, 'four.sh', '#!/bin/sh\necho "OK - fine"\nexit 4\n');
  const badRun = await certify(dir, ['--scenario', 'healthy', '--reports', 'a', '--', bad]);
  assert.equal(badRun.code, 1);
  assert.match(
    verdictOf(await badRun.report(), 'healthy').failure,
    /^PLUGIN-PERFDATA-GRAMMAR: perfdata item GB: no '='/,
  );
  const fourRun = await certify(dir, ['--scenario', 'healthy', '--reports', 'b', '--', four]);
  assert.equal(fourRun.code, 1);
  assert.match(
    verdictOf(await fourRun.report(), 'healthy').failure,
    /^PLUGIN-EXIT-CODE: exit code 4 is not 0-3$/m,
  );
});

test('a hanging plug-in is killed at the timeout and fails', async (t) => {
  const dir = await tempDir(t);
  const hang = await throwawayPlugin(dir, 'hang.sh', '#!/bin/sh\necho "OK - waiting"\nsleep 300\n');
  const result = await certify(
    dir,
    ['--scenario', 'healthy', '--timeout', '1', '--reports', 'out', '--', hang],
    {
      PATH: process.env['PATH'],
    },
  );
  assert.equal(result.code, 1);
  const healthy = verdictOf(await result.report(), 'healthy');
  assert.equal(
    healthy.failure,
    'PLUGIN-EXIT-CODE: still running after 1 s: the harness killed its process group',
  );
  assert.equal(healthy.run?.details?.['timedOut'], true);
});

test('--runs: a failure on a drawn state shrinks to a scenario file that replays it, --seed repeats it', async (t) => {
  const dir = await tempDir(t);
  // Crashes when no backup target is configured.
  const fragile = await throwawayPlugin(
    dir,
    'fragile.py',
    pythonPlugin(
      "backups = text.split('<<<pbx_backups>>>\\n')[1].split('<<<')[0]\nif not backups.strip():\n    raise IndexError('no backup')\nprint('OK - fine | targets=1')",
    ),
  );
  const args = [
    '--scenario',
    'healthy',
    '--runs',
    '25',
    '--seed',
    '4242',
    '--reports',
    'out',
    '--',
    fragile,
    '{host}',
    '{port}',
  ];
  const first = await certify(dir, args);
  assert.equal(first.code, 1, first.out + first.err);
  const crash = clauseOf(await first.report(), 'PLUGIN-NO-CRASH');
  assert.equal(crash.verdict, 'fail');
  assert.match(crash.scenarios[0]?.name ?? '', /^generated #\d+$/);
  assert.match(crash.scenarios[0]?.failure?.message ?? '', /a Python traceback in its output/);
  const file = join(dir, 'out', 'shrunk-seed-4242.json');
  const shrunk = JSON.parse(await readFile(file, 'utf8'));
  // Minimal: nothing but an empty backup list is left of the drawn state.
  assert.deepEqual(shrunk.state, { backups: [] });
  assert.deepEqual(shrunk.generate, {});
  assert.deepEqual(loadScenarioFile(file, Date.now()).backups, []);
  const replay = /replay with: (.*)$/m.exec(first.out)?.[1] ?? '';
  assert.equal(
    replay,
    `npx pbx-conformance certify-plugin --scenario-file out/shrunk-seed-4242.json -- ${fragile} {host} {port}`,
  );
  // The one command reproduces it.
  const words = splitCommandLine(replay).slice(3);
  const again = await certify(dir, [...words.slice(0, 2), '--reports', 'replay', ...words.slice(2)]);
  assert.equal(again.code, 1);
  const replayed = verdictOf(await again.report(), 'shrunk-seed-4242');
  assert.equal(replayed.verdict, 'fail');
  assert.match(replayed.failure, /PLUGIN-NO-CRASH: a Python traceback/);
  // The same seed draws and shrinks the same.
  const second = await certify(dir, [...args.slice(0, -5), 'out2', '--', fragile, '{host}', '{port}']);
  assert.equal(second.code, 1);
  assert.deepEqual(JSON.parse(await readFile(join(dir, 'out2', 'shrunk-seed-4242.json'), 'utf8')), shrunk);
});
