import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureWritableDir } from '../../../src/report/ensure-writable-dir.ts';

test('creates missing folders level by level and leaves no probe file behind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'writable-'));
  try {
    const target = join(dir, 'a', 'b', 'c');
    await ensureWritableDir(target);
    assert.ok((await stat(target)).isDirectory());
    await ensureWritableDir(target);
    const { readdir } = await import('node:fs/promises');
    assert.deepEqual(await readdir(target), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file in the way is a one-line reason', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'writable-'));
  try {
    await writeFile(join(dir, 'file'), '');
    await assert.rejects(
      ensureWritableDir(join(dir, 'file', 'reports')),
      /: .*file\/reports: ENOTDIR|is not a folder/,
    );
    await assert.rejects(ensureWritableDir(join(dir, 'file')), /is not a folder/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a folder below /proc fails at once instead of looping (Linux)', async (t) => {
  if (process.platform !== 'linux') return t.skip('Linux only');
  await assert.rejects(
    ensureWritableDir('/proc/nope/deeper'),
    /reports folder \/proc\/nope\/deeper cannot be created \(ENOENT at \/proc\/nope\)/,
  );
});
