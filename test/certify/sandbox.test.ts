/**
 * The sealed plug-in run (issue 28 §4, src/certify/sandbox.ts): each protection proven by a
 * plug-in that tries to break it, sealed and, where the protection needs bubblewrap, unsealed too
 * (so the test can tell a protection from a plug-in that merely failed to try). Where bubblewrap is
 * missing or not permitted, the sealed tests skip with the reason; PBX_REQUIRE_SEALED=1 (set by
 * .ci/run after installing it) turns that into a failure.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isolatedRun } from '../../src/certify/isolated-env.ts';
import { absentProtections, BWRAP_VARIABLE, probeSandbox, type Sandbox } from '../../src/certify/sandbox.ts';
import { processesWith } from '../../steps/certify/support/host-processes.ts';
import { sealedOrSkip, tempDir, throwawayPlugin } from './support.ts';

const sandbox = await probeSandbox(process.env);

const unsealed = await probeSandbox({ ...process.env, [BWRAP_VARIABLE]: 'none' });

async function run(dir: string, argv: string[], using: Sandbox, env: NodeJS.ProcessEnv = process.env) {
  return (await isolatedRun({ argv, cwd: dir, env, timeoutMs: 15_000, sandbox: using })).run;
}

test('the probe names bubblewrap and every protection; sealed means every one present', async (t) => {
  if (!(await sealedOrSkip(t, sandbox))) return;
  assert.match(sandbox.report.tool ?? '', /^bubblewrap \d/);
  assert.deepEqual(
    sandbox.report.protections.map((p) => [p.name, p.present]),
    [
      ['environment', true],
      ['read-only-filesystem', true],
      ['fresh-temp-folders', true],
      ['pid-namespace', true],
      ['no-control-plane', true],
    ],
  );
});

test('without bubblewrap the report says not sealed, why, and which protections are absent', async () => {
  const missing = await probeSandbox({ ...process.env, [BWRAP_VARIABLE]: '/nonexistent/bwrap' });
  assert.equal(missing.report.sealed, false);
  assert.match(missing.report.reason ?? '', /bubblewrap \(\/nonexistent\/bwrap\) cannot be run: not found/);
  assert.deepEqual(absentProtections(missing.report), [
    'read-only-filesystem',
    'fresh-temp-folders',
    'pid-namespace',
  ]);
  assert.equal(missing.wrap(['true'], { cwd: '/', env: {} }), null);
  assert.equal(unsealed.report.sealed, false);
  assert.match(unsealed.report.reason ?? '', /PBX_CONFORMANCE_BWRAP=none/);
});

test('a bubblewrap that is there but not permitted gives "not permitted" with its own words', async (t) => {
  const dir = await tempDir(t);
  const fake = await throwawayPlugin(
    dir,
    'bwrap',
    '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
  );
  const refused = await probeSandbox({ ...process.env, [BWRAP_VARIABLE]: fake });
  assert.equal(refused.report.sealed, false);
  assert.equal(refused.report.tool, 'bubblewrap 0.8.0');
  assert.match(
    refused.report.reason ?? '',
    /not permitted here: bwrap: No permissions to create new namespace/,
  );
});

const ENV_READER = `#!/bin/sh
echo "PBX OK - environment read"
env
cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c CI_DEPLOY_TOKEN || true
`;

test('a sealed run sees PATH, the locale, TZ and its own folders only: no secret of the harness', async (t) => {
  const using = await sealedOrSkip(t, sandbox);
  if (!using) return;
  const dir = await tempDir(t);
  const plugin = await throwawayPlugin(dir, 'env.sh', ENV_READER);
  const secret = 'ci-secret-3f9a1c';
  const out = await run(dir, [plugin], using, {
    ...process.env,
    CI_DEPLOY_TOKEN: secret,
    LC_ALL: 'C.UTF-8',
    TZ: 'Europe/Berlin',
  });
  assert.equal(out.exitCode, 0, out.stderr);
  assert.ok(!out.stdout.includes(secret), 'the secret reached the plug-in');
  const names = out.stdout
    .split('\n')
    .slice(1)
    .flatMap((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1] ?? []);
  for (const name of names)
    assert.match(
      name,
      /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|HOME|TMPDIR|TMP|TEMP|XDG_CACHE_HOME|XDG_STATE_HOME|PWD|SHLVL|_)$/,
    );
  assert.ok(out.stdout.includes('LC_ALL=C.UTF-8') && out.stdout.includes('TZ=Europe/Berlin'), out.stdout);
  assert.ok(out.stdout.includes('HOME=/tmp/home'), out.stdout);
  // Only the run's own processes show in /proc: no other process's environment can be read.
  assert.equal(out.stdout.trim().split('\n').at(-1), '0');
});

test('an unsealed run has the cleared environment too', async (t) => {
  const dir = await tempDir(t);
  const plugin = await throwawayPlugin(dir, 'env.sh', ENV_READER);
  const out = await run(dir, [plugin], unsealed, { ...process.env, CI_DEPLOY_TOKEN: 'ci-secret-3f9a1c' });
  assert.ok(!out.stdout.includes('ci-secret-3f9a1c'));
  assert.ok(!/^CI_DEPLOY_TOKEN=/m.test(out.stdout));
});

test('a sealed run writes nowhere that outlives it: project folder and home read-only, /tmp and /var/tmp fresh', async (t) => {
  const using = await sealedOrSkip(t, sandbox);
  if (!using) return;
  const dir = await tempDir(t);
  const mark = `pbx-sealed-write-${process.pid}-${Date.now()}`;
  const home = homedir();
  const places = [join(dir, mark), join(home, mark), `/var/tmp/${mark}`, `/tmp/${mark}`, `/tmp/home/${mark}`];
  t.after(() => Promise.all(places.map((p) => rm(p, { force: true }))));
  const plugin = await throwawayPlugin(
    dir,
    'writer.sh',
    `#!/bin/sh\necho "PBX OK - writes"\nfor p in ${places.join(' ')}; do\n  if [ -e "$p" ]; then echo "found $p"; fi\n  if echo x > "$p" 2>/dev/null; then echo "wrote $p"; else echo "refused $p"; fi\ndone\n`,
  );
  const first = await run(dir, [plugin], using);
  const second = await run(dir, [plugin], using);
  assert.match(first.stdout, new RegExp(`refused ${join(dir, mark)}`));
  assert.match(first.stdout, new RegExp(`wrote /var/tmp/${mark}`), 'the fresh /var/tmp takes writes');
  assert.doesNotMatch(second.stdout, /found /, 'a write of the first run was there in the second');
  for (const place of places) assert.equal(existsSync(place), false, `${place} outlived the run`);
});

test('a sealed run leaves no child behind, not even one in a session of its own', async (t) => {
  const using = await sealedOrSkip(t, sandbox);
  if (!using) return;
  const dir = await tempDir(t);
  const marker = `${dir}/orphan-marker`;
  // The child keeps stdout open too: the run still ends when the plug-in does.
  const plugin = await throwawayPlugin(
    dir,
    'daemon.sh',
    `#!/bin/sh\nsetsid sh -c 'touch "$TMPDIR/ready"; sleep 120; :' ${marker} &\nuntil [ -e "$TMPDIR/ready" ]; do sleep 0.05; done\necho "PBX OK - started a daemon"\nexit 0\n`,
  );
  const started = performance.now();
  const out = await run(dir, [plugin], using);
  assert.equal(out.exitCode, 0, out.stderr);
  assert.ok(performance.now() - started < 5_000, 'the run waited for the child');
  for (let i = 0; i < 20 && processesWith(marker).length > 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(processesWith(marker), [], 'the detached child outlived the run');
});

test('unsealed, the same detached child survives (so the sealed test proves the sandbox), and the run does not wait for it', async (t) => {
  const dir = await tempDir(t);
  const marker = `${dir}/orphan-marker`;
  const plugin = await throwawayPlugin(
    dir,
    'daemon.sh',
    `#!/bin/sh\nsetsid sh -c 'touch "$TMPDIR/ready"; sleep 120; :' ${marker} &\nuntil [ -e "$TMPDIR/ready" ]; do sleep 0.05; done\necho "PBX OK - started a daemon"\nexit 0\n`,
  );
  const out = await run(dir, [plugin], unsealed);
  const left = processesWith(marker);
  t.after(() => {
    for (const pid of left) process.kill(pid, 'SIGKILL');
  });
  assert.equal(out.exitCode, 0);
  assert.equal(out.timedOut, false);
  assert.equal(left.length, 1, 'the child did not survive the unsealed run');
});

test('a sealed plug-in that dies by a signal is reported with the signal; the timeout still ends it', async (t) => {
  const using = await sealedOrSkip(t, sandbox);
  if (!using) return;
  const dir = await tempDir(t);
  const crash = await throwawayPlugin(dir, 'crash.sh', '#!/bin/sh\necho "PBX OK - almost"\nkill -SEGV $$\n');
  const crashed = await run(dir, [crash], using);
  assert.equal(crashed.signal, 'SIGSEGV');
  assert.equal(crashed.exitCode, null);
  const marker = `${dir}/hang-marker`;
  const hang = await throwawayPlugin(dir, 'hang.sh', `#!/bin/sh\nsh -c 'sleep 120; :' ${marker}\n`);
  const hung = (
    await isolatedRun({ argv: [hang], cwd: dir, env: process.env, timeoutMs: 500, sandbox: using })
  ).run;
  assert.equal(hung.timedOut, true);
  for (let i = 0; i < 20 && processesWith(marker).length > 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(processesWith(marker), [], 'the hanging plug-in outlived its timeout');
});

test('a plug-in in a folder under /tmp is visible to its sealed run (bound back read-only)', async (t) => {
  const using = await sealedOrSkip(t, sandbox);
  if (!using) return;
  const dir = await tempDir(t);
  await writeFile(join(dir, 'data.txt'), 'served\n');
  const plugin = await throwawayPlugin(dir, 'read.sh', '#!/bin/sh\necho "PBX OK - $(cat data.txt)"\n');
  const out = await run(dir, ['sh', plugin], using);
  assert.equal(out.stdout, 'PBX OK - served\n');
});
