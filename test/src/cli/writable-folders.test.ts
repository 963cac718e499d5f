import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { captureIo } from './capture-io.ts';

/**
 * Issue 20, item 13: every command checks every folder it will write before it starts. `simulate
 * --data /proc/1/x` spun at 100 % CPU; `fuzz` and `certify-plugin` with `--reports f/sub` (`f` a
 * file) ran to the end and only then failed, `certify-plugin` with a raw `ENOTDIR`.
 */

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'writable-folders-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI in `cwd`, bounded so a spinning command fails the test instead of hanging it. */
async function cli(cwd: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(cwd, { signal: AbortSignal.abort() });
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${argv.join(' ')} did not end within 10 s`)), 10_000);
  });
  try {
    const code = await Promise.race([run(argv, io), bound]);
    return { code, out: io.out(), err: io.err() };
  } finally {
    clearTimeout(timer);
  }
}

test('simulate --data below /proc is exit 2 with one line at once, nothing started (Linux)', async (t) => {
  if (process.platform !== 'linux') return t.skip('Linux only');
  const result = await cli(process.cwd(), ['simulate', '--data', '/proc/1/x']);
  assert.equal(result.code, 2);
  assert.match(
    result.err,
    /^pbx-conformance: --data folder \/proc\/1\/x cannot be created \(\w+ at \/proc\/1\/x\)\n$/,
  );
  assert.equal(result.out, '');
});

test('simulate --data under a file is exit 2 naming the file', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'f'), '');
  const result = await cli(dir, ['simulate', '--data', 'f/sub']);
  assert.equal(result.code, 2);
  assert.match(result.err, /^pbx-conformance: --data folder .*\/f\/sub: .*\/f is not a folder\n$/);
});

test('fuzz --reports under a file is exit 2 before any input is sent', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'f'), '');
  const result = await cli(dir, ['fuzz', '--faces', 'data', '--runs', '5', '--reports', 'f/sub']);
  assert.equal(result.code, 2, result.err);
  assert.match(result.err, /^pbx-conformance: reports folder .*\/f\/sub: .*\/f is not a folder\n$/);
  assert.doesNotMatch(result.out, /inputs per face/, 'the run did not start');
});

test('certify-plugin --reports under a file is exit 2 before the plug-in runs', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'f'), '');
  const plugin = join(dir, 'plugin.sh');
  await writeFile(plugin, `#!/bin/sh\ntouch ${JSON.stringify(join(dir, 'ran'))}\necho "OK - fine"\n`);
  await chmod(plugin, 0o755);
  const result = await cli(dir, [
    'certify-plugin',
    '--quiet',
    '--scenario',
    'healthy',
    '--reports',
    'f/sub',
    '--',
    plugin,
  ]);
  assert.equal(result.code, 2, result.err);
  assert.match(result.err, /^pbx-conformance: reports folder .*\/f\/sub: .*\/f is not a folder\n$/);
  assert.deepEqual((await readdir(dir)).sort(), ['f', 'plugin.sh'], 'the plug-in never ran');
});

/**
 * Without `--reports`, a command writes its reports to `reports/` under its own working folder
 * (the `cwd` it was given), never under the process's: `certify-plugin` and `fuzz` wrote to the
 * process's folder.
 */
test('certify-plugin without --reports writes its reports under its working folder', async (t) => {
  const dir = await tempDir(t);
  const plugin = join(dir, 'plugin.sh');
  await writeFile(plugin, '#!/bin/sh\necho "OK - fine"\n');
  await chmod(plugin, 0o755);
  const io = captureIo(dir, { env: { PATH: process.env['PATH'] ?? '' } });
  const code = await run(
    ['certify-plugin', '--quiet', '--scenario', 'healthy', '--runs', '0', '--', plugin],
    io,
  );
  assert.ok(code === 0 || code === 1, io.err());
  assert.ok(
    existsSync(join(dir, 'reports', 'compatibility.json')),
    'compatibility.json under the working folder',
  );
  assert.ok(existsSync(join(dir, 'reports', 'served')), 'the served texts beside it');
});

test('fuzz without --reports writes its reports under its working folder', async (t) => {
  const dir = await tempDir(t);
  const result = await cli(dir, ['fuzz', '--quiet', '--faces', 'data', '--runs', '5', '--seed', '1']);
  assert.ok(result.code === 0 || result.code === 1, result.err);
  assert.ok(
    existsSync(join(dir, 'reports', 'compatibility.json')),
    'compatibility.json under the working folder',
  );
});
