import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/build-package.mjs', import.meta.url));
/** The module the build script imports before its check (the stamp of the sources it builds). */
const STAMP = fileURLToPath(new URL('../../bin/source-stamp.js', import.meta.url));

/**
 * Runs a copy of the build script (and the module it imports) in an empty tree of its own (it builds the tree it lies in), so
 * nothing of the repository is removed or built; `dist/marker` shows whether the build began.
 */
function buildWith(value: string | undefined) {
  const root = mkdtempSync(join(tmpdir(), 'build-switch-'));
  try {
    mkdirSync(join(root, 'scripts'));
    copyFileSync(SCRIPT, join(root, 'scripts', 'build-package.mjs'));
    mkdirSync(join(root, 'bin'));
    copyFileSync(STAMP, join(root, 'bin', 'source-stamp.js'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'marker'), '');
    const env = { ...process.env };
    delete env['PBX_BUILD_NO_TYPECHECK'];
    if (value !== undefined) env['PBX_BUILD_NO_TYPECHECK'] = value;
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-package.mjs')], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, stderr: run.stderr, began: !existsSync(join(root, 'dist', 'marker')) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('PBX_BUILD_NO_TYPECHECK with a value other than 1, 0 or empty exits 2 with one line before the build removes or builds anything', () => {
  for (const value of ['yes', 'true', '2', ' 1']) {
    const { status, stderr, began } = buildWith(value);
    assert.equal(status, 2, `${JSON.stringify(value)}: ${stderr}`);
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(
      stderr,
      /^build: PBX_BUILD_NO_TYPECHECK is a switch: 1 skips the type check, 0 or unset keeps it \(got "/,
    );
    assert.ok(!/\n\s+at /.test(stderr), 'no stack trace');
    assert.equal(began, false, 'dist/ left as it was');
  }
});

test('PBX_BUILD_NO_TYPECHECK accepts 1, 0, empty and unset: the build begins', () => {
  // The copy has no TypeScript beside it, so the build stops at the compiler, past the check.
  for (const value of ['1', '0', '', undefined]) {
    const { status, stderr, began } = buildWith(value);
    assert.equal(began, true, `${JSON.stringify(value)}: ${stderr}`);
    assert.notEqual(status, 2, stderr);
    assert.ok(!stderr.includes('PBX_BUILD_NO_TYPECHECK'), stderr);
  }
});
