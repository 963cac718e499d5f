import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openFleetDatabase } from '../../../../simulators/fleet-controller/persistence/fleet-database.ts';
import { MakeDirsError, makeDirs } from '../../../../simulators/shared/make-dirs.ts';

// Issue 20, item 13: `mkdirSync(dir, { recursive: true })` spins forever on a path below /proc.

test('makeDirs creates every missing level and names a file in the way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'make-dirs-'));
  try {
    assert.equal(makeDirs(join(dir, 'a', 'b')), join(dir, 'a', 'b'));
    assert.ok(statSync(join(dir, 'a', 'b')).isDirectory());
    writeFileSync(join(dir, 'f'), '');
    assert.throws(
      () => makeDirs(join(dir, 'f', 'sub')),
      (error: unknown) => {
        assert.ok(error instanceof MakeDirsError);
        assert.equal(error.code, 'NOTDIR');
        assert.match(error.message, /\/f is not a folder$/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fleet database refuses a folder below /proc at once instead of spinning (Linux)', async (t) => {
  if (process.platform !== 'linux') return t.skip('Linux only');
  await assert.rejects(
    openFleetDatabase('/proc/1/x/data'),
    /\/proc\/1\/x\/data cannot be created \(\w+ at \/proc\/1\/x\)/,
  );
  assert.throws(() => makeDirs('/proc/nope'), /cannot be created/);
});
