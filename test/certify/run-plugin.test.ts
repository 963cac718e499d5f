import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { judgeRun } from '../../src/certify/judge-run.ts';
import { executableProblem, runPlugin } from '../../src/certify/run-plugin.ts';

async function script(t: TestContext, body: string): Promise<{ path: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'certify-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'plugin.sh');
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return { path, dir };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a run captures exit code, stdout and stderr; arguments pass without a shell', async (t) => {
  const { path, dir } = await script(t, 'echo "OK - $1 | a=1"; echo oops >&2; exit 1');
  const run = await runPlugin({ argv: [path, '$HOME; rm -rf /'], cwd: dir, env: {}, timeoutMs: 20_000 });
  assert.equal(run.exitCode, 1);
  assert.equal(run.stdout, 'OK - $HOME; rm -rf / | a=1\n');
  assert.equal(run.stderr, 'oops\n');
  assert.equal(run.timedOut, false);
  assert.deepEqual(judgeRun(run, 20_000).findings, []);
});

test('death by a signal counts as a crash', async (t) => {
  const { path, dir } = await script(t, 'echo "OK - almost"; kill -SEGV $$');
  const run = await runPlugin({ argv: [path], cwd: dir, env: {}, timeoutMs: 20_000 });
  assert.equal(run.signal, 'SIGSEGV');
  assert.deepEqual(judgeRun(run, 20_000).findings, [
    { clause: 'PLUGIN-EXIT-CODE', message: 'died by signal SIGSEGV' },
  ]);
});

test('exit 3 with a traceback counts as a crash', async (t) => {
  const { path, dir } = await script(
    t,
    'echo "UNKNOWN - internal error"; echo "Traceback (most recent call last):" >&2; echo "KeyError: x" >&2; exit 3',
  );
  const run = await runPlugin({ argv: [path], cwd: dir, env: {}, timeoutMs: 20_000 });
  assert.equal(run.exitCode, 3);
  assert.deepEqual(judgeRun(run, 20_000).findings, [
    { clause: 'PLUGIN-NO-CRASH', message: 'a Python traceback in its output' },
  ]);
});

test('an exit code outside 0-3 is reported', async (t) => {
  const { path, dir } = await script(t, 'echo "OK"; exit 4');
  const run = await runPlugin({ argv: [path], cwd: dir, env: {}, timeoutMs: 20_000 });
  assert.deepEqual(judgeRun(run, 20_000).findings, [
    { clause: 'PLUGIN-EXIT-CODE', message: 'exit code 4 is not 0-3' },
  ]);
});

test('at the timeout the whole process group is killed, children included', async (t) => {
  // The plug-in starts a child that would outlive it, writes the child's pid, and hangs.
  const { path, dir } = await script(t, 'sleep 300 &\necho $! > child.pid\nwait');
  const run = await runPlugin({
    argv: [path],
    cwd: dir,
    env: { PATH: process.env['PATH'] },
    timeoutMs: 1_000,
  });
  assert.equal(run.timedOut, true);
  assert.equal(run.signal, 'SIGKILL');
  const child = Number((await readFile(join(dir, 'child.pid'), 'utf8')).trim());
  assert.ok(child > 0);
  // SIGKILL to the group is delivered by the kernel; give it a moment to reap.
  for (let i = 0; i < 50 && alive(child); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(child), false, 'the child of the plug-in is still running');
  assert.match(
    judgeRun(run, 1_000)
      .findings.map((f) => f.message)
      .join(),
    /still running after 1 s/,
  );
});

test('a plug-in that cannot be run is named', async (t) => {
  const { path, dir } = await script(t, 'exit 0');
  assert.equal(executableProblem(path, dir, {}), null);
  assert.equal(executableProblem('sh', dir, { PATH: '/bin:/usr/bin' }), null);
  assert.match(executableProblem('./nope.py', dir, {}) ?? '', /not found or not executable: \.\/nope\.py/);
  assert.match(executableProblem('no-such-plugin', dir, { PATH: '/bin' }) ?? '', /not found in PATH/);
  await chmod(path, 0o644);
  assert.match(executableProblem(path, dir, {}) ?? '', /not executable/);
});
