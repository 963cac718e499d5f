import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import {
  DataDirInUseError,
  LOCK_FILE,
  lockDataDir,
} from '../../../../simulators/fleet-controller/persistence/data-dir-lock.ts';

function dir(t: TestContext): string {
  const path = mkdtempSync(join(tmpdir(), 'fleet-lock-'));
  t.after(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

/** The pid of a process that has already ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString('utf8'));
}

test('the lock file names this process and goes away on release', (t) => {
  const path = dir(t);
  const release = lockDataDir(path);
  assert.equal(readFileSync(join(path, LOCK_FILE), 'utf8').trim(), String(process.pid));
  assert.throws(() => lockDataDir(path), DataDirInUseError);
  release();
  release();
  assert.equal(existsSync(join(path, LOCK_FILE)), false);
  lockDataDir(path)();
});

test('a lock left by a process that no longer runs is taken over', (t) => {
  const path = dir(t);
  writeFileSync(join(path, LOCK_FILE), `${deadPid()}\n`);
  const release = lockDataDir(path);
  assert.equal(readFileSync(join(path, LOCK_FILE), 'utf8').trim(), String(process.pid));
  release();
});

test('a lock held by another running process is refused, naming it', (t) => {
  const path = dir(t);
  // The parent of this test process is running (the test runner or the shell).
  writeFileSync(join(path, LOCK_FILE), `${process.ppid}\n`);
  assert.throws(
    () => lockDataDir(path),
    (error: Error) => {
      assert.ok(error instanceof DataDirInUseError);
      assert.match(error.message, new RegExp(`in use by process ${process.ppid}`));
      return true;
    },
  );
  assert.equal(readFileSync(join(path, LOCK_FILE), 'utf8').trim(), String(process.ppid));
});

test('an unreadable lock file (no pid) counts as stale', (t) => {
  const path = dir(t);
  writeFileSync(join(path, LOCK_FILE), 'garbage');
  lockDataDir(path)();
});
