import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import {
  FIXTURE_DIR_PREFIX,
  harnessHost,
  prepareResolverFixtures,
  removeStaleFixtureDirs,
} from '../../../src/cli/resolver-fixtures.ts';

test('the harness shares the simulator’s loopback address, and a wildcard bind means 127.0.0.1', () => {
  assert.equal(harnessHost('127.0.0.1'), '127.0.0.1');
  assert.equal(harnessHost('127.0.0.5'), '127.0.0.5');
  assert.equal(harnessHost('0.0.0.0'), '127.0.0.1');
  assert.equal(harnessHost('localhost'), '127.0.0.1');
});

test('on any other address the harness’s address as the PBX sees it is unknown', () => {
  assert.equal(harnessHost('192.0.2.10'), null);
  assert.equal(harnessHost('pbx.example'), null);
  assert.equal(harnessHost('127.0.0'), null);
});

// Issue 20, item 20: SIGKILL left `pbx-conformance-resolver-*` folders with TLS private keys in
// the temp folder. Each start now removes the folders of simulators that are gone.
test('a start removes the key folders of simulators that are gone, and only those', async () => {
  const root = await mkdtemp(join(tmpdir(), 'fixture-dirs-'));
  try {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const make = async (name: string, owner: number | null, ageMs = 0) => {
      const dir = join(root, `${FIXTURE_DIR_PREFIX}${name}`);
      await mkdir(dir);
      await writeFile(join(dir, 'trusted.key.pem'), '-----BEGIN PRIVATE KEY-----\n');
      if (owner !== null) await writeFile(join(dir, 'owner.pid'), `${owner}\n`);
      const at = new Date(Date.now() - ageMs);
      await utimes(dir, at, at);
      return dir;
    };
    const killed = await make('killed', dead);
    const running = await make('running', process.pid);
    const oldUnowned = await make('old', null, 10 * 60_000);
    const fresh = await make('fresh', null);
    await mkdir(join(root, 'someone-else'));
    assert.deepEqual((await removeStaleFixtureDirs(root)).sort(), [killed, oldUnowned].sort());
    assert.deepEqual(
      (await readdir(root)).sort(),
      [basename(fresh), basename(running), 'someone-else'].sort(),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('the fixtures name key files of the running process and remove them on close', async (t) => {
  const fixtures = await prepareResolverFixtures('127.0.0.1');
  assert.ok(fixtures);
  if (fixtures.warning) return t.skip(fixtures.warning);
  const keyFile = fixtures.section.trustedCertificate?.keyFile ?? '';
  const dir = dirname(keyFile);
  assert.equal((await readFile(join(dir, 'owner.pid'), 'utf8')).trim(), String(process.pid));
  assert.match(await readFile(keyFile, 'utf8'), /BEGIN PRIVATE KEY/);
  await fixtures.close();
  await assert.rejects(readdir(dir), /ENOENT/);
});
