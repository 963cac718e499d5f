import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs the CLI with the package's `features/` folder hidden (an empty tmpfs over it, by
 * bubblewrap): an install whose clause catalog cannot be read. Skipped where bubblewrap cannot
 * run; with PBX_REQUIRE_SEALED=1 (`.ci/run` installed it) that fails instead.
 */
function withoutCatalog(t: TestContext, argv: string[]) {
  const probe = spawnSync('bwrap', ['--dev-bind', '/', '/', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    const reason = probe.error?.message ?? probe.stderr.trim();
    if (process.env['PBX_REQUIRE_SEALED'] === '1') assert.fail(`bubblewrap cannot run: ${reason}`);
    t.skip(`bubblewrap cannot run here: ${reason}`);
    return null;
  }
  return spawnSync(
    'bwrap',
    [
      '--dev-bind',
      '/',
      '/',
      '--tmpfs',
      join(ROOT, 'features'),
      process.execPath,
      '--import',
      'tsx',
      join(ROOT, 'src/cli/main.ts'),
      ...argv,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
}

test('certify-plugin with a clause catalog that cannot be read is exit 2 with one line before the plug-in runs', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-unreadable-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const plugin = join(dir, 'plugin.sh');
  await writeFile(plugin, `#!/bin/sh\ntouch ${JSON.stringify(join(dir, 'ran'))}\necho "OK - fine"\n`);
  await chmod(plugin, 0o755);
  // Without --quiet: a run that started would show on stderr (a sealed run's files stay in its sandbox).
  const result = withoutCatalog(t, [
    'certify-plugin',
    '--scenario',
    'healthy',
    '--reports',
    join(dir, 'reports'),
    '--',
    plugin,
  ]);
  if (!result) return;
  assert.equal(result.status, 2, result.stderr);
  assert.match(
    result.stderr,
    /^pbx-conformance: the clause catalog cannot be read: ENOENT: no such file or directory, (?:access|open) '[^']*features\/clauses\.yaml'\n$/,
  );
  assert.ok(!(await readdir(dir)).includes('ran'), 'the plug-in never ran');
  assert.equal(result.stdout, '');
});

test('--version with a clause catalog that cannot be read says so, without a stack trace', (t) => {
  const result = withoutCatalog(t, ['--version']);
  if (!result) return;
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.match(
    result.stdout,
    /^pbx-conformance \d+\.\d+\.\d+\S*\ncatalog: features\/clauses\.yaml cannot be read \(ENOENT: [^\n]*\)\n$/,
  );
});
